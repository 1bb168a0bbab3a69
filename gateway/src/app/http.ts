import type { Express, NextFunction, Request, Response } from 'express';
import type { z } from 'zod';
import type { CallDef, TErrorDetail } from '@portal/contracts/api/envelope';
import { ERROR_MESSAGES, ERROR_STATUS, ErrorCode } from '@portal/contracts/api/errors';
import { isTrialType } from '@portal/contracts/domain/member';
import { AppError } from './errors.ts';
import type { Merchant } from '../modules/merchants/merchant-directory.ts';
import type { SessionInfo } from '../modules/sessions/session-store.ts';

/** What a handler knows about the caller. */
export type RequestContext = {
  merchant: Merchant;
  ip: string;
  /** The visitor's country (ISO alpha-2) from the trusted proxy's header (REGION_HEADER), or null. */
  region?: string | null;
  session: SessionInfo | null;
  token: string | null;
};

export type Handler<Q, B, V> = (input: { query: Q; body: B; ctx: RequestContext; req: Request }) => Promise<V>;

type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;

/**
 * A zod error's issues as the envelope's details: path, message and, where the issue is one of the
 * kinds a client can word itself, its rule (ZErrorDetail of the contracts).
 */
export function zodDetails(err: z.ZodError): TErrorDetail[] {
  return err.issues.map((i) => ({ path: i.path.join('.'), message: i.message, ...issueRule(i) }));
}

const SIZED = new Set(['string', 'array']);
function issueRule(i: z.core.$ZodIssue): Pick<TErrorDetail, 'rule' | 'of' | 'limit'> {
  switch (i.code) {
    case 'too_small':
    case 'too_big': {
      const origin = String(i.origin);
      const of = origin === 'string' ? 'string' : origin === 'array' ? 'array' : origin === 'number' || origin === 'int' ? 'number' : undefined;
      if (!of) return {};
      const bound = Number(i.code === 'too_small' ? i.minimum : i.maximum);
      // a text's or a list's size; a number's bound is left out (a money field's is in minor units)
      const limit = SIZED.has(of) && i.inclusive !== false && Number.isSafeInteger(bound) ? { limit: bound } : {};
      return { rule: i.code === 'too_small' ? 'min' : 'max', of, ...limit };
    }
    case 'invalid_type':
      return { rule: i.expected === 'int' ? 'int' : 'type' };
    case 'invalid_format':
      return { rule: 'format' };
    case 'invalid_value':
      return { rule: 'value' };
    case 'unrecognized_keys':
      return { rule: 'keys' };
    default:
      return {};
  }
}

/**
 * A string PostgreSQL cannot store: U+0000 (text and jsonb refuse it) or an unpaired UTF-16 surrogate
 * ("\ud800" in JSON: jsonb refuses its escape, text would get U+FFFD in its place).
 */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Where parsed input holds U+0000 or an unpaired surrogate, as a dotted path ('' for the input itself);
 * null when it holds none. Iterative: a body nested thousands deep must not overflow the stack.
 */
export function nulPath(input: unknown): string | null {
  const stack: Array<[unknown, string]> = [[input, '']];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (UNSTORABLE.test(v)) return path;
    } else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        const at = path ? `${path}.${k}` : k;
        if (UNSTORABLE.test(k)) return at;
        stack.push([x, at]);
      }
    }
  }
  return null;
}

/**
 * PostgreSQL text and jsonb cannot hold U+0000 (nor jsonb an unpaired surrogate): the first query given
 * one fails, which was a 500. No field of any call may contain either, so both are refused as VALIDATION
 * before any handler runs:
 * in the URL and the query by refuseNulInUrl (mounted once, on the app), in the JSON body by
 * refuseNulInBody (mounted after each JSON body parser).
 */
/** The VALIDATION error of a NUL character found at `where` (see nulPath). */
export function nulError(where: string): AppError {
  return new AppError(ErrorCode.VALIDATION, 'Invalid input', [{ path: where, message: 'Must not contain the NUL character (U+0000) or an unpaired surrogate' }]);
}

/** Where a request's URL holds a NUL: 'url' for its path (%00), `query.<key>` for its parsed query; null when nowhere. */
export function nulInUrl(url: string, query: unknown): string | null {
  if (/%00/.test(url.split('?', 1)[0]!)) return 'url';
  const at = nulPath(query);
  return at === null ? null : at ? `query.${at}` : 'query';
}

/** Throws VALIDATION when parsed input holds a NUL (see nulPath): for a multipart form's fields, which no JSON body parser checks. */
export function refuseNul(input: unknown): void {
  const at = nulPath(input);
  if (at !== null) throw nulError(at);
}

function refuseNulAt(where: string | null, next: NextFunction) {
  next(where === null ? undefined : nulError(where));
}

export function refuseNulInUrl(req: Request, _res: Response, next: NextFunction) {
  refuseNulAt(nulInUrl(req.originalUrl, req.query), next);
}

export function refuseNulInBody(req: Request, _res: Response, next: NextFunction) {
  refuseNulAt(nulPath(req.body), next);
}

/** The failure envelope `{ success: false, code, message, details?, value? }` of an AppError. */
export function errorBody(err: AppError) {
  return {
    success: false as const, code: err.code, message: err.message,
    ...(err.details ? { details: err.details } : {}),
    ...(err.value ? { value: err.value } : {}),
  };
}

export function sendError(res: Response, err: AppError) {
  res.status(err.status).json(errorBody(err));
}

/**
 * Who may make a call, in one place for every member call: an `auth` call needs a live session, and
 * a trial (free-play) session only gets the calls marked `trial` (spec: a trial account cannot open
 * the member or account centres).
 */
export function authorize(def: { auth: boolean; trial?: true }, ctx: { session?: { memberType: number } | null; merchant: Pick<Merchant, 'trialTypes'> }): void {
  if (!def.auth) return;
  if (!ctx.session) throw new AppError(ErrorCode.UNAUTHORIZED);
  if (!def.trial && isTrialType(ctx.session.memberType, ctx.merchant.trialTypes)) throw new AppError(ErrorCode.TRIAL_FORBIDDEN);
}

/**
 * Thin route: parse -> policy -> command -> presenter. Query and body are parsed by the contract's
 * schemas; calls marked Y need a live session (and a real account unless marked `trial`, see authorize); outside production the value is checked against the
 * contract too, so a drifting response fails loudly in tests.
 */
export function mountCall<V extends z.ZodType, Q extends z.ZodType | undefined, B extends z.ZodType | undefined>(
  app: Express,
  def: CallDef<Q, B, V>,
  handler: Handler<Infer<Q>, Infer<B>, z.infer<V>>,
  opts: { checkResponses: boolean },
) {
  const method = def.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
  app[method](def.path, async (req: Request, res: Response, next: NextFunction) => {
    try {
      const ctx = req.ctx;
      authorize(def, ctx);
      let query: unknown = undefined;
      if (def.query) {
        const q = def.query.safeParse(req.query ?? {});
        if (!q.success) throw new AppError(ErrorCode.VALIDATION, 'Invalid query', zodDetails(q.error));
        query = q.data;
      }
      let body: unknown = undefined;
      if (def.body) {
        const b = def.body.safeParse(req.body ?? {});
        if (!b.success) throw new AppError(ErrorCode.VALIDATION, 'Invalid body', zodDetails(b.error));
        body = b.data;
      }
      const value = await handler({ query: query as Infer<Q>, body: body as Infer<B>, ctx, req });
      if (opts.checkResponses) {
        const check = def.value.safeParse(value);
        if (!check.success) throw new Error(`response of ${def.path} breaks its contract: ${JSON.stringify(zodDetails(check.error))}`);
      }
      // A signed-in call's answer (member data) or one that carries a session token is kept by no cache.
      if (def.auth || ctx.session || (typeof value === 'object' && value !== null && 'token' in value)) res.set('Cache-Control', 'private, no-store');
      res.json(def.okMessage ? { success: true, message: def.okMessage, value } : { success: true, value });
    } catch (err) {
      next(err);
    }
  });
}

type Logger = { error(obj: unknown, msg?: string): void };

/** Body-parser and handler failures become the envelope; only real bugs answer 500. */
export function errorHandler(log: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (res.headersSent) return;
    if (err instanceof AppError) return sendError(res, err);
    const e = err as { type?: string; status?: number; statusCode?: number };
    const status = e.status ?? e.statusCode;
    if (e.type === 'entity.parse.failed') return sendError(res, new AppError(ErrorCode.MALFORMED_JSON));
    if (e.type === 'entity.too.large') return sendError(res, new AppError(ErrorCode.PAYLOAD_TOO_LARGE));
    if (e.type === 'charset.unsupported' || e.type === 'encoding.unsupported') {
      return sendError(res, new AppError(ErrorCode.UNSUPPORTED_MEDIA_TYPE));
    }
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return res.status(status).json({ success: false, code: ErrorCode.BAD_REQUEST, message: ERROR_MESSAGES.BAD_REQUEST });
    }
    // The request id (observeHttp) joins this line to the client's report and to the request's other lines.
    log.error({ err, reqId: res.getHeader('x-request-id'), method: req.method, route: req.route ? String(req.route.path) : undefined }, 'unhandled error');
    res.status(ERROR_STATUS.INTERNAL).json({ success: false, code: ErrorCode.INTERNAL, message: ERROR_MESSAGES.INTERNAL });
  };
}

declare module 'express-serve-static-core' {
  interface Request {
    ctx: RequestContext;
  }
}
