import { randomUUID } from 'node:crypto';
import { EVENT_PAYLOADS, ZAudience, type EventPayload, type EventType, type TEventEnvelope } from '@portal/contracts/events/events';
import { prepared, txOwner, type Db, type Queryable, type Row, type Tx } from '../db/db.ts';

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
  /** The request whose transaction wrote the row (migration 034); null when none did. */
  request_id?: string | null;
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

type LocalListener = (events: TEventEnvelope[]) => void;
const localListeners = new Map<Db, Set<LocalListener>>();

/**
 * Events committed through emitEvent/emitEvents in a transaction of `db`, right after its commit and
 * before the writer answers: for state this node keeps in memory (the bootstrap cache), which must not
 * wait for the relay. Other nodes hear the same events from the bus.
 */
export function onLocalCommit(db: Db, fn: LocalListener): () => void {
  let set = localListeners.get(db);
  if (!set) localListeners.set(db, (set = new Set()));
  set.add(fn);
  return () => {
    set.delete(fn);
    if (!set.size) localListeners.delete(db);
  };
}

function afterCommitOf(tx: Tx, events: TEventEnvelope[]): () => void {
  const db = localListeners.size ? txOwner(tx) : undefined;
  const listeners = db ? localListeners.get(db) : undefined;
  if (!listeners) return wakeRelays;
  return () => {
    wakeRelays();
    for (const l of listeners) l(events);
  };
}

/** One round trip: outbox_emit (migration 013, shared with the ledger's SQL) takes the audience's next seq (row lock: commit order = seq order) and writes the row. */
const EMIT_SQL = prepared('SELECT outbox_emit($2, $3, $4, $5, $1, $6) AS seq');

/**
 * One round trip for a batch ($2: a JSON array of { id, audience, type, payload }): each audience's
 * counter rises once by its count, in sorted audience order; rows get consecutive seqs per audience
 * in array order and are inserted in array order, each listed in outbox_pending for the relay.
 */
const EMIT_MANY_SQL = prepared(`WITH input AS (
     SELECT (x.e->>'id')::uuid AS id, x.e->>'audience' AS audience, x.e->>'type' AS type, (x.e->'payload')::jsonb AS payload, x.ord
     FROM json_array_elements($2::json) WITH ORDINALITY AS x(e, ord)
   ), counts AS (
     SELECT audience, count(*) AS n FROM input GROUP BY audience
   ), s AS (
     INSERT INTO audience_seq AS a (audience, seq) SELECT audience, n FROM counts ORDER BY audience
     ON CONFLICT (audience) DO UPDATE SET seq = a.seq + EXCLUDED.seq
     RETURNING a.audience, a.seq
   ), o AS (
     INSERT INTO outbox (id, merchant_code, audience, seq, type, v, payload, at)
     SELECT i.id, $1, i.audience, s.seq - c.n + row_number() OVER (PARTITION BY i.audience ORDER BY i.ord), i.type, 1, i.payload, $3
     FROM input i JOIN counts c ON c.audience = i.audience JOIN s ON s.audience = i.audience
     ORDER BY i.ord
     RETURNING pos, id, seq
   ), p AS (
     INSERT INTO outbox_pending (pos) SELECT pos FROM o
   )
   SELECT id, seq FROM o`);

/**
 * Write an event in the caller's transaction. The audience's seq rises by one under a row lock,
 * so seq order equals commit order per audience, and a rolled-back transaction leaves no gap.
 * Lock order rule: a use case makes its ledger transfers before it emits its own events, so the
 * account rows are always locked before the audience rows and concurrent transactions cannot deadlock.
 * In a db.tx on PostgreSQL the row is written with the transaction's next statement or, when the
 * event is its last write, in the same round trip as its COMMIT (tx.defer): the envelope's `seq` is
 * filled in then, so read it after the commit (afterCommit hooks and onLocalCommit listeners see it).
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
  const env: TEventEnvelope<T> = { id, type, v: 1, audience, seq: 0, at: at.toISOString(), payload: checked };
  const params = [id, merchantCode, audience, type, JSON.stringify(checked), at.toISOString()];
  const done = (rows: Row[]) => {
    env.seq = (rows[0] as { seq: number }).seq;
  };
  if (tx.defer) tx.defer(EMIT_SQL, params, done);
  else done((await tx.query(EMIT_SQL, params)).rows);
  tx.afterCommit(afterCommitOf(tx, [env as TEventEnvelope]));
  return env;
}

/** One event for emitEvents: its audience, type and the payload of that type. */
export type NewEvent = { [T in EventType]: { audience: string; type: T; payload: EventPayload<T> } }[EventType];

/**
 * Write many events in the caller's transaction with ONE statement, for producers that announce a
 * batch at once (a round settling many bets): same rows and guarantees as calling emitEvent for each
 * in turn, at one round trip instead of one per event. Each audience's counter rises once by its
 * number of events (row lock: commit order = seq order, no gap on rollback) and events of the same
 * audience take consecutive seqs in the order given; outbox rows are written in that order too, so
 * pos order agrees with seq order for the relay. Audience rows are locked in sorted order, so two
 * batches that share audiences cannot deadlock each other (the lock order rule of emitEvent holds).
 * Returns the envelopes in the order given (their seqs filled in when the statement ran: see emitEvent).
 */
export async function emitEvents(tx: Tx, merchantCode: string, events: readonly NewEvent[]): Promise<TEventEnvelope[]> {
  if (!events.length) return [];
  const at = new Date().toISOString();
  const out: TEventEnvelope[] = events.map((e) => {
    ZAudience.parse(e.audience);
    const payload = EVENT_PAYLOADS[e.type].parse(e.payload) as EventPayload<EventType>;
    return { id: randomUUID(), type: e.type, v: 1, audience: e.audience, seq: 0, at, payload } as TEventEnvelope;
  });
  const params = [merchantCode, JSON.stringify(out.map((e) => ({ id: e.id, audience: e.audience, type: e.type, payload: e.payload }))), at];
  const done = (rows: Row[]) => {
    const seqOf = new Map((rows as Array<{ id: string; seq: number }>).map((x) => [x.id, x.seq]));
    for (const e of out) e.seq = seqOf.get(e.id)!;
  };
  if (tx.defer) tx.defer(EMIT_MANY_SQL, params, done);
  else done((await tx.query(EMIT_MANY_SQL, params)).rows);
  tx.afterCommit(afterCommitOf(tx, out));
  return out;
}

/** Wake local relays: for writers that put events in the outbox from SQL (the ledger functions) and did not go through emitEvent. */
export function wakeRelays() {
  for (const w of wakers) w();
}

const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

export function rowToEnvelope(r: OutboxRow): TEventEnvelope {
  // The relay reads `at` already formatted by SQL (no Date to parse and format again per event).
  const at = r.at instanceof Date ? r.at.toISOString() : ISO_UTC.test(r.at) ? r.at : new Date(r.at).toISOString();
  const payload = typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload;
  const e = { id: r.id, type: r.type as EventType, v: r.v, audience: r.audience, seq: r.seq, at, payload } as TEventEnvelope;
  if (r.request_id) e.requestId = r.request_id;
  return e;
}

export type CatchUp = { ok: true; events: TEventEnvelope[] } | { ok: false; reason: 'gap_too_old' | 'too_many' };

/** How many missed events one catch-up may send before the client is told to resync over HTTP. */
export const CATCH_UP_LIMIT = 1000;

/** Events of one audience after `afterSeq`, in order; or a resync when the outbox no longer holds them all. */
export async function readSince(q: Queryable, audience: string, afterSeq: number): Promise<CatchUp> {
  const r = await q.query<OutboxRow>(
    `SELECT pos, id, merchant_code, audience, seq, type, v, payload, at, request_id FROM outbox
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
