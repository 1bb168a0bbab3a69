import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { z } from 'zod';
import type { CallDef } from '@portal/contracts/api/envelope';
import { opsCan, type OpsAction } from '@portal/contracts/api/ops';
import { LIMITS } from '@portal/contracts/domain/constants';
import type { Db, Tx } from '../../db/db.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import { refuseNulInBody, zodDetails } from '../../app/http.ts';
import type { Merchant, MerchantDirectory } from '../merchants/merchant-directory.ts';
import { audit, type Operator, type Operators } from './operators.ts';
import { notServed, routeMethods } from '../../app/method-not-allowed.ts';

/** The back office's routers mounted on each app, with their prefixes: a NOT_FOUND tail looks up a path's methods in all of them. */
const mountedOn = new WeakMap<Express, Array<{ prefix: string; router: express.Router }>>();

/**
 * The methods any back-office router mounted on `app` serves at `path` (a full path, /ops/api/...).
 * The sections share the /ops/api prefix, so a path one section serves may reach another's tail.
 */
function opsMethods(app: Express, path: string): string[] {
  const found = new Set<string>();
  for (const m of mountedOn.get(app) ?? []) {
    if (path !== m.prefix && !path.startsWith(`${m.prefix}/`)) continue;
    for (const method of routeMethods(m.router, path.slice(m.prefix.length) || '/')) found.add(method);
  }
  return [...found].sort();
}

/**
 * The gate of every operator call: a live session of this merchant, the password changed, the
 * authenticator enrolled (but for the calls that get there), then the action's roles. A refused
 * action answers 403 FORBIDDEN and leaves an audit row (`permission.denied`).
 */
export async function gateOperator(
  db: Db, operator: Operator | null, action: OpsAction | null, what: { method: string; path: string; ungated?: boolean },
): Promise<Operator> {
  if (!operator) throw new AppError(ErrorCode.UNAUTHORIZED);
  if (operator.mustChangePassword && !what.ungated) throw new AppError(ErrorCode.PASSWORD_CHANGE_REQUIRED);
  if (!operator.totpEnrolled && !what.ungated) throw new AppError(ErrorCode.TOTP_ENROLMENT_REQUIRED);
  if (action && !opsCan(operator.roles, action)) {
    await db.tx((tx: Tx) => audit(tx, operator, 'permission.denied', { type: 'action', id: action }, undefined, { method: what.method, path: what.path, roles: operator.roles }));
    throw new AppError(ErrorCode.FORBIDDEN);
  }
  return operator;
}

const BEARER = /^Bearer ([A-Za-z0-9_-]{20,128})$/;

/** Who asks: the merchant (host or X-Merchant-Code), and the operator of its Bearer token when it is one of this merchant's. */
export type OpsCtx = { merchant: Merchant; operator: Operator | null; token: string | null; ip: string };
/** The same, past the gate. */
export type OpsGatedCtx = OpsCtx & { operator: Operator };
type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;
type AnyCallDef = CallDef<z.ZodType | undefined, z.ZodType | undefined, z.ZodType>;

/** What a call's handler is given: the parsed query and body, the gated caller, the request, and the path's `:id` (0 without one). */
export type OpsCallInput<Q, B> = { query: Infer<Q>; body: Infer<B>; ctx: OpsGatedCtx; req: Request; id: number };

/** How a back-office section registers a call (session, role, parsing, envelope). */
export type OpsCall = <V extends z.ZodType, Q extends z.ZodType | undefined, B extends z.ZodType | undefined>(
  def: CallDef<Q, B, V>,
  permission: OpsAction | null,
  handler: (i: OpsCallInput<Q, B>) => Promise<z.infer<V>>,
) => void;

export type OpsRouterDeps = { db: Db; merchants: MerchantDirectory; operators: Operators; checkResponses?: boolean };

export type OpsRouterOptions = {
  /** Where the router is mounted: the contracts' paths start with it. */
  prefix: string;
  /**
   * Leave the JSON body parser to a later `json()` call, for routes that read the raw body, or need a
   * larger limit, and must come before it.
   */
  deferJson?: boolean;
  /**
   * A call's refused action is audited with the path asked (`/x/12/y`) rather than the contract's
   * (`/x/:id/y`): what these sections have always written.
   */
  auditUrl?: boolean;
  /** Replaces the gate of `call` (the back office's own session calls are partly ungated). */
  authorize?: (req: Request, def: AnyCallDef, permission: OpsAction | null) => Promise<OpsCtx>;
};

/** A path's numeric parameter: 1 to 15 decimal digits, a positive safe integer; anything else is NOT_FOUND. */
export function idOf(req: Request, param = 'id'): number {
  const raw = req.params[param];
  const id = Number(raw);
  if (typeof raw !== 'string' || !/^\d{1,15}$/.test(raw) || !Number.isSafeInteger(id) || id <= 0) throw new AppError(ErrorCode.NOT_FOUND);
  return id;
}

/**
 * One router for a section of the operator back office, with the scaffolding every section shares:
 * the JSON body (size limit, no NUL), the caller (merchant from host or header, Bearer token to an
 * operator of that merchant), the gate (gateOperator), zod parsing into a VALIDATION 400, numeric
 * `:id`s (404 otherwise), the `{ success, value }` envelope (checked against the contract when
 * `checkResponses`), and optionally the NOT_FOUND tail.
 */
export function createOpsRouter(deps: OpsRouterDeps, opts: OpsRouterOptions) {
  const router = express.Router();

  /** The JSON body parser; `limits` gives larger limits to some paths (relative to the prefix). */
  function json(limits: Record<string, number> = {}) {
    for (const [path, limit] of Object.entries(limits)) router.use(path, express.json({ limit, strict: true }));
    router.use(express.json({ limit: LIMITS.MAX_BODY_BYTES, strict: true }));
    router.use(refuseNulInBody);
  }
  if (!opts.deferJson) json();

  /** The caller, not yet gated: an unknown merchant is UNKNOWN_MERCHANT; another merchant's operator is no operator. */
  async function resolve(req: Request): Promise<OpsCtx> {
    const header = req.headers['x-merchant-code'];
    const merchant = await deps.merchants.resolve({ host: req.hostname, code: typeof header === 'string' ? header : undefined });
    if (!merchant) throw new AppError(ErrorCode.UNKNOWN_MERCHANT);
    const token = BEARER.exec(req.headers.authorization ?? '')?.[1] ?? null;
    const op = token ? await deps.operators.resolve(token) : null;
    return { merchant, operator: op && op.merchantCode === merchant.code ? op : null, token, ip: req.ip ?? '' };
  }

  /** The caller through the gate for `action`; a refusal is audited with `path` (default: the path asked). */
  async function gate(req: Request, action: OpsAction, path?: string): Promise<OpsGatedCtx> {
    const ctx = await resolve(req);
    const operator = await gateOperator(deps.db, ctx.operator, action, { method: req.method, path: path ?? req.originalUrl.split('?', 1)[0] ?? '' });
    return { ...ctx, operator };
  }

  /** Client input through a zod schema; a mismatch is VALIDATION 400 (`Invalid query`, `Invalid body`). */
  function parse<S extends z.ZodType>(schema: S, input: unknown, what: 'query' | 'body' = 'body'): z.infer<S> {
    const r = schema.safeParse(input ?? {});
    if (!r.success) throw new AppError(ErrorCode.VALIDATION, `Invalid ${what}`, zodDetails(r.error));
    return r.data;
  }

  /** Answers `{ success: true, value }`, the value checked against `def` when `checkResponses`. */
  function send(res: Response, value: unknown, def?: { path?: string; value: z.ZodType }) {
    if (def && deps.checkResponses) {
      const check = def.value.safeParse(value);
      if (!check.success) throw new Error(`response of ${def.path ?? 'an ops call'} breaks its contract: ${check.error.message}`);
    }
    // Operator data and tokens: kept by no cache.
    res.set('Cache-Control', 'private, no-store');
    res.json({ success: true, value });
  }

  /** A handler whose errors go to the error handler (it answers by itself: bytes, CSV). */
  const handle = (fn: (req: Request, res: Response) => Promise<void>): RequestHandler => async (req: Request, res: Response, next: NextFunction) => {
    try {
      await fn(req, res);
    } catch (err) {
      next(err);
    }
  };

  /** A handler whose value is answered in the envelope (checked against `def` when given). */
  const route = (fn: (req: Request) => Promise<unknown>, def?: { path?: string; value: z.ZodType }): RequestHandler =>
    handle(async (req, res) => send(res, await fn(req), def));

  const authorize = opts.authorize ?? (async (req: Request, def: AnyCallDef, permission: OpsAction | null) => {
    const ctx = await resolve(req);
    const where = opts.auditUrl ? { method: req.method, path: req.originalUrl.split('?', 1)[0] ?? '' } : { method: def.method, path: def.path };
    return { ...ctx, operator: await gateOperator(deps.db, ctx.operator, permission, where) };
  });

  /** One contract call: gate, query, body, `:id`, handler, envelope. */
  function call<V extends z.ZodType, Q extends z.ZodType | undefined, B extends z.ZodType | undefined>(
    def: CallDef<Q, B, V>, permission: OpsAction | null, handler: (i: OpsCallInput<Q, B>) => Promise<z.infer<V>>,
  ): void {
    const method = def.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    router[method](def.path.slice(opts.prefix.length) || '/', route(async (req) => {
      const ctx = await authorize(req, def as AnyCallDef, permission);
      const query = (def.query ? parse(def.query, req.query, 'query') : undefined) as Infer<Q>;
      const body = (def.body ? parse(def.body, req.body, 'body') : undefined) as Infer<B>;
      const id = req.params.id === undefined ? 0 : idOf(req);
      return handler({ query, body, ctx: ctx as OpsGatedCtx, req, id });
    }, def));
  }

  /**
   * Mounts the router under the prefix; `notFound` answers anything else under it instead of passing
   * it on: 405 METHOD_NOT_ALLOWED with `Allow` (RFC 9110) for a path a back-office router of this app
   * serves with other methods, else 404 NOT_FOUND (as the /wps API does, app/method-not-allowed.ts).
   */
  function mount(app: Express, mountOpts: { notFound?: boolean } = {}) {
    const list = mountedOn.get(app) ?? [];
    list.push({ prefix: opts.prefix, router });
    mountedOn.set(app, list);
    if (mountOpts.notFound) {
      router.use((req: Request, res: Response, next: NextFunction) =>
        next(notServed(req, res, opsMethods(app, opts.prefix + (req.path === '/' ? '' : req.path)))));
    }
    app.use(opts.prefix, router);
  }

  return { router, json, resolve, gate, parse, idOf, handle, route, call, mount };
}
