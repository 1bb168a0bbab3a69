import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/**
 * The request id of the HTTP request being served, carried through its async work (handlers, the
 * database transactions it opens) without passing it through every signature. db.tx reads it and
 * stores it with the outbox rows the transaction writes, so the relay and every node's socket
 * fan-out can log the id of the request that caused an event.
 */
const store = new AsyncLocalStorage<string>();

/**
 * A request id we accept from a caller (X-Request-Id): short, and only characters that are safe in a
 * log line, a response header and an SQL string literal (db.ts inlines it, see setRequestIdSql).
 * Anything else is replaced by a fresh id, never echoed.
 */
export const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

export function requestIdFrom(header: string | string[] | undefined): string {
  return typeof header === 'string' && SAFE_REQUEST_ID.test(header) ? header : randomUUID();
}

/** Run `fn` (and everything it starts) with `id` as the current request id. */
export function withRequestId<T>(id: string, fn: () => T): T {
  return store.run(id, fn);
}

/** The request id of the work running now, if it was started by a request. */
export function currentRequestId(): string | undefined {
  return store.getStore();
}

/**
 * The statement that records the current request id in the open transaction (transaction-local
 * setting portal.request_id, read by the outbox's request_id column default, migration 034); null
 * when there is none. The id matched SAFE_REQUEST_ID, checked again here because it is inlined: it
 * rides along with BEGIN in one round trip (a simple-protocol query takes no parameters).
 */
export function setRequestIdSql(id: string | undefined): string | null {
  if (!id || !SAFE_REQUEST_ID.test(id)) return null;
  return `SELECT set_config('portal.request_id', '${id}', true)`;
}
