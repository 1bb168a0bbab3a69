import { randomUUID } from 'node:crypto';
import { EVENT_PAYLOADS, ZAudience, type EventPayload, type EventType, type TEventEnvelope } from '@portal/contracts/events/events';
import type { Queryable, Tx } from '../db/db.ts';

export type OutboxRow = {
  pos: number;
  id: string;
  merchant_code: string;
  audience: string;
  seq: number;
  type: string;
  v: number;
  payload: unknown;
  at: Date | string;
};

type Waker = () => void;
let wakers: Waker[] = [];

/** The relay registers here so a local commit that wrote events wakes it at once instead of at the next poll. */
export function onOutboxCommit(fn: Waker): () => void {
  wakers.push(fn);
  return () => {
    wakers = wakers.filter((w) => w !== fn);
  };
}

/**
 * Write an event in the caller's transaction. The audience's seq rises by one under a row lock,
 * so seq order equals commit order per audience, and a rolled-back transaction leaves no gap.
 * Lock order rule: a use case makes its ledger transfers before it emits its own events, so the
 * account rows are always locked before the audience rows and concurrent transactions cannot deadlock.
 */
export async function emitEvent<T extends EventType>(
  tx: Tx,
  merchantCode: string,
  audience: string,
  type: T,
  payload: EventPayload<T>,
): Promise<TEventEnvelope<T>> {
  ZAudience.parse(audience);
  const checked = EVENT_PAYLOADS[type].parse(payload) as EventPayload<T>;
  const id = randomUUID();
  const at = new Date();
  // One round trip: take the audience's next seq (row lock: commit order = seq order) and write the row.
  const r = await tx.query<{ seq: number }>(
    `WITH s AS (
       INSERT INTO audience_seq (audience, seq) VALUES ($3, 1)
       ON CONFLICT (audience) DO UPDATE SET seq = audience_seq.seq + 1 RETURNING seq
     )
     INSERT INTO outbox (id, merchant_code, audience, seq, type, v, payload, at)
     SELECT $1, $2, $3, s.seq, $4, 1, $5, $6 FROM s RETURNING seq`,
    [id, merchantCode, audience, type, JSON.stringify(checked), at.toISOString()],
  );
  const seq = r.rows[0]!.seq;
  tx.afterCommit(wakeRelays);
  return { id, type, v: 1, audience, seq, at: at.toISOString(), payload: checked };
}

/** Wake local relays: for writers that put events in the outbox from SQL (the ledger functions) and did not go through emitEvent. */
export function wakeRelays() {
  for (const w of wakers) w();
}

export function rowToEnvelope(r: OutboxRow): TEventEnvelope {
  const at = r.at instanceof Date ? r.at.toISOString() : new Date(r.at).toISOString();
  const payload = typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload;
  return { id: r.id, type: r.type as EventType, v: r.v, audience: r.audience, seq: r.seq, at, payload } as TEventEnvelope;
}

export type CatchUp = { ok: true; events: TEventEnvelope[] } | { ok: false; reason: 'gap_too_old' | 'too_many' };

/** How many missed events one catch-up may send before the client is told to resync over HTTP. */
export const CATCH_UP_LIMIT = 1000;

/** Events of one audience after `afterSeq`, in order; or a resync when the outbox no longer holds them all. */
export async function readSince(q: Queryable, audience: string, afterSeq: number): Promise<CatchUp> {
  const r = await q.query<OutboxRow>(
    `SELECT pos, id, merchant_code, audience, seq, type, v, payload, at FROM outbox
     WHERE audience = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
    [audience, afterSeq, CATCH_UP_LIMIT + 1],
  );
  if (r.rows.length > CATCH_UP_LIMIT) return { ok: false, reason: 'too_many' };
  if (r.rows.length > 0 && r.rows[0]!.seq !== afterSeq + 1) return { ok: false, reason: 'gap_too_old' };
  if (r.rows.length === 0) {
    // Nothing newer is kept: fine if the client is current, a resync if the counter moved past it.
    const cur = await q.query<{ seq: number }>('SELECT seq FROM audience_seq WHERE audience = $1', [audience]);
    const latest = cur.rows[0]?.seq ?? 0;
    if (latest > afterSeq) return { ok: false, reason: 'gap_too_old' };
  }
  return { ok: true, events: r.rows.map(rowToEnvelope) };
}

/** The current seq of an audience (0 when it never had an event). */
export async function currentSeq(q: Queryable, audience: string): Promise<number> {
  const r = await q.query<{ seq: number }>('SELECT seq FROM audience_seq WHERE audience = $1', [audience]);
  return r.rows[0]?.seq ?? 0;
}
