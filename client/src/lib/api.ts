import type { z } from 'zod';
import type { CallDef, TErrorDetail } from '@portal/contracts/api/envelope';
import { ERROR_DETAIL_RULES, ErrorCode } from '@portal/contracts/api/errors';
import { clearSession, getSessionToken, subscribeSession } from './session';
import { getMerchantCode } from './merchant';
import { isLazySchema } from './lazy-schema';

/** Codes the client raises itself (no usable answer from the gateway). */
export const CLIENT_ERROR_CODE = {
  NETWORK: 'NETWORK',
  BAD_RESPONSE: 'BAD_RESPONSE',
  /** No answer within the call's time (REQUEST_TIMEOUT_MS): the spec's "The page took longer time to load" (section 8). */
  TIMEOUT: 'TIMEOUT',
} as const;

/**
 * How long a call may take, answer read included, before it is given up with TIMEOUT. A stalled mobile
 * connection otherwise left a form's button busy for as long as the browser kept the socket open.
 */
export const REQUEST_TIMEOUT_MS = 60_000;

/**
 * Field-level problems of a VALIDATION envelope: `message` is 'Input cannot be empty', `reg_pattern_N:range`
 * or an English text; `rule` (with `of` and `limit`) says which kind of rule it broke (ZErrorDetail).
 */
export type ApiErrorDetail = Pick<TErrorDetail, 'path' | 'message' | 'rule' | 'of' | 'limit'>;
const DETAIL_RULES: ReadonlySet<string> = new Set(ERROR_DETAIL_RULES);
const DETAIL_OF: ReadonlySet<string> = new Set(['string', 'number', 'array']);

/** A failed call: `code` is an ErrorCode of the contracts or a CLIENT_ERROR_CODE; the UI translates it. */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number | null;
  /** Field problems the server listed (validation errors). */
  readonly details: readonly ApiErrorDetail[];
  /** The envelope's `value` on failure (for example `{ captcha: true }` after a failed login). */
  readonly value: unknown;

  constructor(code: string, message: string, status: number | null = null, details: readonly ApiErrorDetail[] = [], value: unknown = undefined) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
    this.details = details;
    this.value = value;
  }
}

function detailsOf(raw: unknown): ApiErrorDetail[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(
    (d): d is ApiErrorDetail => isRecord(d) && typeof d.path === 'string' && typeof d.message === 'string',
  ).map((d) => {
    const rule = typeof d.rule === 'string' && DETAIL_RULES.has(d.rule) ? { rule: d.rule } : {};
    const of = typeof d.of === 'string' && DETAIL_OF.has(d.of) ? { of: d.of } : {};
    const limit = typeof d.limit === 'number' && Number.isSafeInteger(d.limit) && d.limit >= 0 ? { limit: d.limit } : {};
    return { path: d.path, message: d.message, ...rule, ...of, ...limit } as ApiErrorDetail;
  });
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

type AnyCall = CallDef<z.ZodType | undefined, z.ZodType | undefined, z.ZodType>;
type QueryOf<D> = D extends CallDef<infer Q, z.ZodType | undefined, z.ZodType> ? (Q extends z.ZodType ? z.input<Q> : never) : never;
type BodyOf<D> = D extends CallDef<z.ZodType | undefined, infer B, z.ZodType> ? (B extends z.ZodType ? z.input<B> : never) : never;
type ValueOf<D> = D extends CallDef<z.ZodType | undefined, z.ZodType | undefined, infer V> ? z.output<V> : never;

export type CallInput<D extends AnyCall> = {
  query?: QueryOf<D>;
  body?: BodyOf<D>;
  /** Values for `:name` segments of the path. */
  params?: Record<string, string | number>;
  signal?: AbortSignal;
};

export type ApiClientDeps = {
  fetch: typeof fetch;
  getToken: () => string | null;
  getMerchant: () => string | null;
  onUnauthorized: () => void;
  /** REQUEST_TIMEOUT_MS unless given (tests). */
  timeoutMs?: number;
};

/** Builds `/path?query` from a def: fills `:params`, drops empty query values. */
export function buildUrl(path: string, params?: Record<string, string | number>, query?: Record<string, unknown>): string {
  const filled = path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const v = params?.[name];
    if (v === undefined) throw new ApiError(ErrorCode.BAD_REQUEST, `Missing path parameter ${name}`);
    return encodeURIComponent(String(v));
  });
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined || v === null || v === '') continue;
    search.append(k, String(v));
  }
  const qs = search.toString();
  return qs ? `${filled}?${qs}` : filled;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function createApiClient(deps: ApiClientDeps) {
  return async function call<D extends AnyCall>(def: D, input: CallInput<D> = {}): Promise<ValueOf<D>> {
    let query: Record<string, unknown> | undefined;
    if (def.query && input.query !== undefined && isLazySchema(def.query)) {
      // Production build (lib/lazy-schema.ts): the gateway parses the query with this same contract.
      query = isRecord(input.query) ? input.query : undefined;
    } else if (def.query && input.query !== undefined) {
      const parsed = def.query.safeParse(input.query);
      if (!parsed.success) throw new ApiError(ErrorCode.VALIDATION, parsed.error.message);
      query = isRecord(parsed.data) ? parsed.data : undefined;
    }
    const headers: Record<string, string> = { Accept: 'application/json' };
    const token = deps.getToken();
    if (token) headers.Authorization = `Bearer ${token}`;
    const merchant = deps.getMerchant();
    if (merchant) headers['X-Merchant-Code'] = merchant;
    let body: string | undefined;
    if (input.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(input.body);
    }

    // The caller's signal (a query cancelled, a sign-out) and the call's own time limit, in one signal
    // (by hand: AbortSignal.any is missing from the older Android WebViews players use).
    const ctrl = new AbortController();
    const outer = input.signal;
    const onOuterAbort = () => ctrl.abort(outer?.reason);
    if (outer?.aborted) ctrl.abort(outer.reason);
    else outer?.addEventListener('abort', onOuterAbort, { once: true });
    let isTimedOut = false;
    const timer = setTimeout(() => {
      isTimedOut = true;
      ctrl.abort();
    }, deps.timeoutMs ?? REQUEST_TIMEOUT_MS);
    const timeout = () => new ApiError(CLIENT_ERROR_CODE.TIMEOUT, 'The page took longer time to load, please check your network connectivity');
    let res: Response;
    let json: unknown;
    try {
      try {
        res = await deps.fetch(buildUrl(def.path, input.params, query), {
          method: def.method,
          headers,
          body,
          signal: ctrl.signal,
          credentials: 'same-origin',
        });
      } catch (e) {
        if (isTimedOut) throw timeout();
        if (e instanceof DOMException && e.name === 'AbortError') throw e;
        throw new ApiError(CLIENT_ERROR_CODE.NETWORK, e instanceof Error ? e.message : 'Network error');
      }
      try {
        json = await res.json();
      } catch {
        if (isTimedOut) throw timeout();
        throw new ApiError(CLIENT_ERROR_CODE.BAD_RESPONSE, `Unexpected response (${res.status})`, res.status);
      }
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuterAbort);
    }
    if (!isRecord(json) || typeof json.success !== 'boolean') {
      throw new ApiError(CLIENT_ERROR_CODE.BAD_RESPONSE, `Unexpected response (${res.status})`, res.status);
    }
    if (!json.success || !res.ok) {
      const code = typeof json.code === 'string' ? json.code : ErrorCode.INTERNAL;
      const message = typeof json.message === 'string' ? json.message : '';
      if (code === ErrorCode.UNAUTHORIZED && token) deps.onUnauthorized();
      throw new ApiError(code, message, res.status, detailsOf(json.details), json.value);
    }
    // Production build: a response whose schema returns valid input unchanged is used as sent; the
    // others load their schema (and zod) on first use. Dev server and tests validate every one.
    const lazy: unknown = def.value;
    if (isLazySchema(lazy) && lazy.identity) return json.value as ValueOf<D>;
    const schema = isLazySchema(lazy) ? await lazy.load() : def.value;
    const value = schema.safeParse(json.value);
    if (!value.success) {
      throw new ApiError(CLIENT_ERROR_CODE.BAD_RESPONSE, `Response of ${def.path} does not match its contract`, res.status);
    }
    return value.data as ValueOf<D>;
  };
}

/**
 * Member calls around a sign-out. A call sent with the token after the gateway revoked it answers
 * 401 (and the browser logs each as an error). So sign-out first aborts the member calls still in
 * flight and holds back new ones (the logout call excepted) until the token is dropped, and a call
 * that needs a session is not sent at all without a token.
 */
export function createSessionCalls(base: ReturnType<typeof createApiClient>, getToken: () => string | null) {
  const inFlight = new Set<AbortController>();
  let signingOut = false;
  const exempt = new Set<AnyCall>();
  const aborted = () => new DOMException('Signed out', 'AbortError');
  const call = (async (def: AnyCall, input: CallInput<AnyCall> = {}) => {
    if (!def.auth) return base(def, input);
    if (getToken() === null) throw new ApiError(ErrorCode.UNAUTHORIZED, 'Not signed in', null);
    if (signingOut && !exempt.has(def)) throw aborted();
    const controller = new AbortController();
    const signal = input.signal ? AbortSignal.any([input.signal, controller.signal]) : controller.signal;
    inFlight.add(controller);
    try {
      return await base(def, { ...input, signal });
    } finally {
      inFlight.delete(controller);
    }
  }) as ReturnType<typeof createApiClient>;
  return {
    call,
    /** Sign-out starts: abort member calls in flight, hold new ones except `logoutCall`. */
    beginSignOut(logoutCall: AnyCall) {
      exempt.add(logoutCall);
      signingOut = true;
      for (const c of inFlight) c.abort(aborted());
      inFlight.clear();
    },
    /** The token was dropped (or replaced): calls go out again. */
    endSignOut() {
      signingOut = false;
    },
  };
}

const sessionCalls = createSessionCalls(
  createApiClient({
    fetch: (input, init) => fetch(input, init),
    getToken: getSessionToken,
    getMerchant: getMerchantCode,
    onUnauthorized: clearSession,
  }),
  getSessionToken,
);
subscribeSession(() => sessionCalls.endSignOut());

/** The app's fetcher: same origin, session token and merchant code from memory. */
export const call = sessionCalls.call;
/** Before DELETE /wps/session/logout: see createSessionCalls. */
export const beginSignOut = sessionCalls.beginSignOut;
