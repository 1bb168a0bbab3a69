import { randomInt } from 'node:crypto';
import { merchantAudience, userAudience } from '@portal/contracts/events/events';
import { TRIAL_TYPE } from '@portal/contracts/domain/constants';
import { splitRedEnvelope, type RandomInt } from '@portal/contracts/domain/red-envelope-split';
import type { TEnvelopeAudience, TGrabRecord, TGrabValue, TOpenEnvelope, TOpsEnvelope } from '@portal/contracts/api/red-envelopes';
import { prepared, type Db, type Tx } from '../../db/db.ts';
import { emitEvent, emitEvents, wakeRelays, type NewEvent } from '../../bus/outbox.ts';
import type { EventPayload } from '@portal/contracts/events/events';
import { AppError, ErrorCode } from '../../app/errors.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { SYSTEM_SHARDS, shardOfKey, transfer } from '../wallet/ledger.ts';
import { notExcludedSql } from '../rg/rg-service.ts';
import { onLedgerTransferCommitted } from '../../obs/metrics.ts';
import { currentRequestId } from '../../obs/request-id.ts';
import { audit, type Operator } from '../ops/operators.ts';
import { iso } from '../../db/iso.ts';

export const ENVELOPE_EXPIRE_JOB = 'envelope.expire';
/** Sends `envelope.left` once per envelope per window in which someone grabbed (key: envelope + window). */
export const ENVELOPE_LEFT_JOB = 'envelope.left';
/** The `envelope.left` job windows: at most one job per envelope per window (its key), due at the window's end. */
export const ENVELOPE_LEFT_WINDOW_MS = 500;
/**
 * The count is sent once the grabs have calmed: a job that finds a grab in the last
 * ENVELOPE_LEFT_QUIET_MS leaves the count to the next window's job, unless the envelope is empty (sent
 * at once) or ENVELOPE_LEFT_MAX_WAIT_MS passed since the last count (or the drop). Each count is a frame
 * to every page of the drop's audience (10,000 pages: as many frames as ~3,300 grabs' ack and two
 * events): with a count every 500 ms, a 7-14 s storm at 10,000 sockets sent 5-20 counts, 50,000-200,000
 * frames, against 30,000 for the grabs themselves (`npm run bench -- --engagement`). A player who grabs
 * now and then sees the count about half a second to a second after the grab.
 */
export const ENVELOPE_LEFT_QUIET_MS = 500;
export const ENVELOPE_LEFT_MAX_WAIT_MS = 5_000;
/** Done `envelope.left` rows are deleted after this long (a key is only ever enqueued within its window). */
export const ENVELOPE_LEFT_KEEP_MS = 60_000;

type EnvelopeRow = {
  id: number; merchant_code: string; currency: string; request_id: string; total_amount: number; share_count: number; min_share: number;
  audience_kind: TEnvelopeAudience['kind']; audience_days: number | null; audience_promotion_id: number | string | null;
  audience_from: Date | string | null; audience_to: Date | string | null; target_count: number | null; message_en: string | null; message_ty: string | null;
  status: 'open' | 'expired'; refunded_amount: number | null; fund_transfer_id: number; refund_transfer_id: number | null; created_by: string;
  created_at: Date | string; expires_at: Date | string;
};
type Stats = { grabbed_count: number; grabbed_amount: number };
/** `left`: free shares, computed by the query (absent: the envelope was just dropped, all are free). */
type WithLeft = { shares_left?: number | string };
/** A free share (not grabbed, not returned), for a query over `red_envelope_shares s`: the one rule of every count of shares left. */
const FREE_SHARE_SQL = 's.member_id IS NULL AND s.refunded_at IS NULL';
/** The envelope's free shares, as `shares_left`, for a query over `red_envelopes e`. */
const SHARES_LEFT_SQL = `(SELECT count(*)::int FROM red_envelope_shares s WHERE s.envelope_id = e.id AND ${FREE_SHARE_SQL}) AS shares_left`;

/** A grab's ledger idempotency key, as red_envelope_grab_many writes it (migrations 068, 070). */
const grabKey = (envelopeId: number, memberId: number) => `envelope:${envelopeId}:${memberId}`;

/** A date column as yyyy-MM-dd (pg gives a Date at local midnight unless its type parser is set; PGlite a string or a UTC Date). */
const day = (d: Date | string | null) => {
  if (d === null) return null;
  if (typeof d === 'string') return d.slice(0, 10);
  const local = new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
  return d.getUTCHours() === 0 && d.getUTCMinutes() === 0 ? d.toISOString().slice(0, 10) : local;
};
const message = (e: EnvelopeRow) => ({ en: e.message_en, ty: e.message_ty });
export const toOpenEnvelope = (e: EnvelopeRow & WithLeft): TOpenEnvelope => ({
  envelopeId: String(e.id), totalAmount: e.total_amount, count: e.share_count, message: message(e), droppedAt: iso(e.created_at), expiresAt: iso(e.expires_at),
  left: e.shares_left === undefined ? e.share_count : Number(e.shares_left),
});
const toOpsEnvelope = (e: EnvelopeRow & Partial<Stats>): TOpsEnvelope => ({
  envelopeId: String(e.id), status: e.status, totalAmount: e.total_amount, count: e.share_count, minShare: e.min_share,
  audience: {
    kind: e.audience_kind, days: e.audience_days, promotionId: e.audience_promotion_id === null ? null : String(e.audience_promotion_id),
    from: day(e.audience_from), to: day(e.audience_to), targets: e.target_count,
  },
  message: message(e), grabbedCount: Number(e.grabbed_count ?? 0), grabbedAmount: Number(e.grabbed_amount ?? 0),
  refundedAmount: e.refunded_amount, createdBy: e.created_by, droppedAt: iso(e.created_at), expiresAt: iso(e.expires_at),
});

/** Players never marketed to: disabled and trial accounts, and (responsible gaming) excluded players. */
const marketableSql = (m: string, trialTypes: string) =>
  `${m}.status = 'active' AND ${m}.type <> ALL(${trialTypes}::int[]) AND ${notExcludedSql(`${m}.id`)}`;

/**
 * The grab in ONE round trip (red_envelope_grab, migration 060), run as its own statement outside
 * db.tx: checks, the share claim (SKIP LOCKED), the ledger transfer escrow -> player and both events.
 * Prepared once per connection: it runs thousands of times a second in a storm.
 */
/**
 * Runs of the grab function before a deadlock is given up on. Defence only: the deadlock seen in the
 * 5,000-grab storm was removed at its cause (migration 063: a grab never waits for a share while holding
 * one), and `retries` counts every rerun so a test can say none happened.
 */
const GRAB_ATTEMPTS = 3;
const GRAB_SQL = prepared('SELECT * FROM red_envelope_grab($1, $2, $3, $4, $5)');
type GrabOut = {
  o_outcome: 'ok' | 'not_found' | 'rg_excluded' | 'not_eligible' | 'already_grabbed' | 'expired' | 'empty';
  o_amount: number | null; o_share: number | null; o_transfer: number | null; o_balance: number | null; o_available: number | null; o_events: number;
  o_rg_kind: string | null; o_rg_until: Date | string | null;
};
const GRAB_REFUSALS = {
  not_found: ErrorCode.NOT_FOUND, not_eligible: ErrorCode.ENVELOPE_NOT_ELIGIBLE, already_grabbed: ErrorCode.ENVELOPE_ALREADY_GRABBED,
  expired: ErrorCode.ENVELOPE_EXPIRED, empty: ErrorCode.ENVELOPE_EMPTY,
} as const;
/** red_envelope_grab's refusal when the grab's ledger key was used with other terms. */
const LEDGER_KEY_MISMATCH_SQLSTATE = 'LD002';
/** The unique (envelope, member) index (migration 051): its violation, and only its, is ENVELOPE_ALREADY_GRABBED. */
const ONE_SHARE_PER_MEMBER_INDEX = 'red_envelope_shares_member';
const sqlError = (err: unknown) => err as { code?: string; constraint?: string };
const isSecondShare = (err: unknown) => sqlError(err).code === '23505' && sqlError(err).constraint === ONE_SHARE_PER_MEMBER_INDEX;

/**
 * Concurrent grabs of one envelope in ONE statement and ONE commit (red_envelope_grab_many, migrations
 * 068 and 070). An envelope's grabs go in GRAB_BATCHES_IN_FLIGHT lanes on this node (by their ledger
 * key's escrow row, see lane() in createRedEnvelopes), each with one statement in flight: a grab whose
 * lane has none runs at once (alone: red_envelope_grab, no added latency when quiet); otherwise it
 * waits and goes with every grab of its lane that arrived meanwhile (at most GRAB_BATCH_MAX) when the
 * lane's statement returns.
 */
export const GRAB_BATCH_MAX = 500;
export const GRAB_BATCHES_IN_FLIGHT = 2;
const GRAB_MANY_SQL = prepared('SELECT * FROM red_envelope_grab_many($1, $2, $3::bigint[], $4, $5::text[])');
type GrabManyOut = Omit<GrabOut, 'o_outcome'> & { o_member: number | string; o_outcome: GrabOut['o_outcome'] | 'busy' };
/**
 * Errors after which a batch's grabs are each run again alone (nothing of the batch committed): the
 * same member's grab committed by another transaction (the whole statement aborted for one player),
 * a deadlock victim, a ledger key used with other terms (the single grab answers it for its player).
 */
const runAloneAfter = (err: unknown) => isSecondShare(err) || sqlError(err).code === '40P01' || sqlError(err).code === LEDGER_KEY_MISMATCH_SQLSTATE;

export type DropInput = {
  totalAmount: number; count: number; minShare: number; expiresInMinutes: number; audience: TEnvelopeAudience;
  message: { en?: string | undefined; ty?: string | undefined }; requestId: string;
  /**
   * The system account that pays the envelope (and gets back what nobody grabbed): the house for an
   * operator's drop (the default), the promotion cost account ('bonus', as promotions-ledger.ts pays a
   * promotion's bonuses) for a promotion's scheduled drop (promotion-drops.ts).
   */
  fundFrom?: EnvelopeFunding;
};
/** Where an envelope's money comes from (and its unclaimed shares go back to). */
export type EnvelopeFunding = 'house' | 'bonus';

/**
 * Red envelopes: drop (house -> escrow, or a promotion's cost account -> escrow for a promotion's drop;
 * shares split at once), grab (one row claim, escrow -> member), expiry (escrow -> the account that
 * funded it, for what is left, once, on the job queue).
 */
export function createRedEnvelopes(deps: {
  db: Db; jobs: JobQueue | null; random?: RandomInt;
  /** Grab batching (default on, GRAB_BATCH_MAX / GRAB_BATCHES_IN_FLIGHT); false: every grab alone. */
  grabBatching?: false | { max?: number; inFlight?: number };
}) {
  const { db } = deps;
  const batchMax = deps.grabBatching === false ? 1 : deps.grabBatching?.max ?? GRAB_BATCH_MAX;
  const batchesInFlight = deps.grabBatching === false ? Infinity : deps.grabBatching?.inFlight ?? GRAB_BATCHES_IN_FLIGHT;
  const rand = deps.random ?? ((n: number) => randomInt(n));
  /**
   * The `envelope.left` windows this node already enqueued (envelope id -> window number): a storm of
   * grabs costs one enqueue per envelope per window per node, not one per grab; the job key dedups nodes.
   */
  const leftWindows = new Map<number, number>();
  /** Grabs run again after a deadlock (should stay 0: see GRAB_ATTEMPTS). */
  const stats = {
    grabRetries: 0,
    /** Statements of red_envelope_grab_many run, and the grabs they carried. */
    grabBatches: 0, grabsBatched: 0,
    /** Grabs of a batch run again alone: 'busy' (every free share held by a running grab) or the batch failed (runAloneAfter). */
    grabsBusy: 0, grabsAfterBatchError: 0,
    /** Second clicks answered from the same player's grab still waiting or running on this node. */
    grabsJoined: 0,
  };

  /** The segment's members, fixed at the drop: only players we may market to. */
  async function resolveTargets(tx: Tx, merchant: string, trialTypes: number[], gmtOffsetMinutes: number, audience: TEnvelopeAudience): Promise<number[] | null> {
    const trials = [TRIAL_TYPE, ...trialTypes];
    if (audience.kind === 'all') return null;
    if (audience.kind === 'promotion') {
      const known = await tx.query('SELECT 1 FROM promotions WHERE id = $1 AND merchant_code = $2', [audience.promotionId, merchant]);
      if (!known.rows.length) {
        throw new AppError(ErrorCode.VALIDATION, 'Unknown promotion', [{ path: 'audience.promotionId', message: 'no such promotion of this merchant' }]);
      }
      // Participants: joined it (sign-up, raffle entry, daily sign-in) or had a reward or a reward request of it.
      const r = await tx.query<{ id: number }>(
        `SELECT m.id FROM members m WHERE m.merchant_code = $1 AND ${marketableSql('m', '$2')}
           AND (EXISTS (SELECT 1 FROM promotion_joins j WHERE j.promotion_id = $3 AND j.member_id = m.id)
             OR EXISTS (SELECT 1 FROM promotion_rewards w WHERE w.promotion_id = $3 AND w.member_id = m.id))
         ORDER BY m.id`,
        [merchant, trials, audience.promotionId]);
      return r.rows.map((x) => Number(x.id));
    }
    if (audience.kind === 'registered') {
      // Both days included, on the merchant's calendar: [from 00:00, to + 1 day 00:00) local, as UTC instants.
      const start = (d: string) => {
        const t = Date.parse(`${d}T00:00:00Z`);
        if (Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== d) {
          throw new AppError(ErrorCode.VALIDATION, 'Invalid date', [{ path: 'audience', message: 'yyyy-MM-dd' }]);
        }
        return t - gmtOffsetMinutes * 60_000;
      };
      const from = new Date(start(audience.from));
      const to = new Date(start(audience.to) + 24 * 3_600_000);
      const r = await tx.query<{ id: number }>(
        `SELECT m.id FROM members m WHERE m.merchant_code = $1 AND ${marketableSql('m', '$2')} AND m.created_at >= $3 AND m.created_at < $4 ORDER BY m.id`,
        [merchant, trials, from, to]);
      return r.rows.map((x) => Number(x.id));
    }
    if (audience.kind === 'depositors') {
      const r = await tx.query<{ id: number }>(
        `SELECT m.id FROM members m WHERE m.merchant_code = $1 AND ${marketableSql('m', '$2')}
           AND EXISTS (SELECT 1 FROM deposits d WHERE d.member_id = m.id AND d.status = 'paid' AND d.updated_at >= now() - make_interval(days => $3))
         ORDER BY m.id`,
        [merchant, trials, audience.days]);
      return r.rows.map((x) => Number(x.id));
    }
    const wanted = audience.accounts.map((a) => a.toLowerCase());
    const r = await tx.query<{ id: number; account_lower: string; ok: boolean }>(
      `SELECT m.id, m.account_lower, (${marketableSql('m', '$3')}) AS ok FROM members m WHERE m.merchant_code = $1 AND m.account_lower = ANY($2::text[])`,
      [merchant, wanted, trials]);
    const found = new Set(r.rows.map((x) => x.account_lower));
    const unknown = audience.accounts.filter((a) => !found.has(a.toLowerCase()));
    if (unknown.length) {
      // Name them (the first 20, and how many in all), so the operator can fix the list.
      const named = unknown.slice(0, 20);
      throw new AppError(ErrorCode.VALIDATION, `Unknown accounts: ${named.join(', ')}${unknown.length > named.length ? ` and ${unknown.length - named.length} more` : ''}`,
        named.map((a) => ({ path: 'audience.accounts', message: `unknown account: ${a}` })), { unknownAccounts: named, unknownCount: unknown.length });
    }
    return r.rows.filter((x) => x.ok).map((x) => Number(x.id)).sort((a, b) => a - b);
  }

  type DropMerchant = { code: string; currency: string; trialTypes: number[]; brand?: { gmtOffsetMinutes: number } };
  async function drop(op: Operator, m: DropMerchant, b: DropInput) {
    return db.tx((tx) => dropIn(tx, op, m, b));
  }

  /** The drop in the caller's transaction (a promotion's scheduled drop runs it in its job's transaction). */
  async function dropIn(tx: Tx, op: Operator, m: DropMerchant, b: DropInput) {
    const a = b.audience;
    const prior = (await tx.query<EnvelopeRow>('SELECT * FROM red_envelopes WHERE merchant_code = $1 AND request_id = $2', [m.code, b.requestId])).rows[0];
    if (prior) {
      const was = toOpsEnvelope(prior).audience;
      const same = prior.total_amount === b.totalAmount && prior.share_count === b.count && prior.min_share === b.minShare && was.kind === a.kind
        && was.days === (a.kind === 'depositors' ? a.days : null) && was.promotionId === (a.kind === 'promotion' ? a.promotionId : null)
        && was.from === (a.kind === 'registered' ? a.from : null) && was.to === (a.kind === 'registered' ? a.to : null);
      if (!same) throw new AppError(ErrorCode.IDEMPOTENCY_MISMATCH);
      return { envelope: toOpsEnvelope(prior), replayed: true };
    }
    const targets = await resolveTargets(tx, m.code, m.trialTypes, m.brand?.gmtOffsetMinutes ?? 0, a);
    if (targets && !targets.length) {
      throw new AppError(ErrorCode.VALIDATION, 'No player in this audience', [{ path: 'audience', message: 'no player we may send an envelope to' }]);
    }
    const id = Number((await tx.query<{ id: number }>(`SELECT nextval('red_envelopes_id_seq') AS id`)).rows[0]!.id);
    const funded = await transfer(tx, {
      merchant: m.code, currency: m.currency, key: `envelope:${id}:fund`, kind: 'envelope.fund',
      debit: { system: b.fundFrom ?? 'house' }, credit: { system: 'envelope' }, amount: b.totalAmount, memo: { envelopeId: String(id), operator: op.username, fundedFrom: b.fundFrom ?? 'house' },
    });
    const e = (await tx.query<EnvelopeRow>(
      `INSERT INTO red_envelopes (id, merchant_code, currency, request_id, total_amount, share_count, min_share, audience_kind, audience_days, target_count,
         message_en, message_ty, fund_transfer_id, created_by, expires_at, audience_promotion_id, audience_from, audience_to)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, now() + make_interval(mins => $15), $16, $17::date, $18::date) RETURNING *`,
      [id, m.code, m.currency, b.requestId, b.totalAmount, b.count, b.minShare, a.kind, a.kind === 'depositors' ? a.days : null,
        targets ? targets.length : null, b.message.en || null, b.message.ty || null, funded.transferId, op.username, b.expiresInMinutes,
        a.kind === 'promotion' ? a.promotionId : null, a.kind === 'registered' ? a.from : null, a.kind === 'registered' ? a.to : null])).rows[0]!;
    const shares = splitRedEnvelope(b.totalAmount, b.count, b.minShare, rand);
    await tx.query(
      `INSERT INTO red_envelope_shares (envelope_id, idx, amount) SELECT $1, s.ord - 1, s.amount FROM unnest($2::bigint[]) WITH ORDINALITY AS s(amount, ord)`,
      [id, shares]);
    if (targets) {
      await tx.query('INSERT INTO red_envelope_targets (envelope_id, member_id) SELECT $1, unnest($2::bigint[])', [id, targets]);
    }
    await audit(tx, op, 'envelope.drop', { type: 'envelope', id }, undefined, {
      totalAmount: b.totalAmount, count: b.count, minShare: b.minShare, audience: a.kind === 'accounts' ? { kind: 'accounts', targets: targets!.length } : { ...a, targets: targets ? targets.length : null },
      expiresAt: iso(e.expires_at), transferId: String(funded.transferId),
    });
    if (deps.jobs) await deps.jobs.enqueue(ENVELOPE_EXPIRE_JOB, { id: String(id) }, { key: `envelope-expire-${id}`, runAt: new Date(e.expires_at) }, tx);
    await announce(tx, e, targets, 'envelope.dropped', toOpenEnvelope(e));
    return { envelope: toOpsEnvelope(e), replayed: false };
  }

  async function announce<T extends 'envelope.dropped' | 'envelope.closed' | 'envelope.left'>(tx: Tx, e: EnvelopeRow, targets: number[] | null, type: T, payload: EventPayload<T>) {
    if (!targets) {
      await emitEvent(tx, e.merchant_code, merchantAudience(e.merchant_code), type, payload);
      return;
    }
    for (let i = 0; i < targets.length; i += 500) {
      await emitEvents(tx, e.merchant_code, targets.slice(i, i + 500).map((id) => ({ audience: userAudience(id), type, payload }) as NewEvent));
    }
  }

  /**
   * One grab, one round trip (red_envelope_grab, migration 060, in its own transaction): the checks
   * (404 not this merchant's, 403 RG_EXCLUDED, 403 not in the audience, 409 already grabbed, 410 closed
   * or past its end), then ONE free share claimed (SKIP LOCKED from a random start: concurrent grabs
   * take distinct rows; 409 ENVELOPE_EMPTY only when no share is free or held by a running grab), then
   * escrow -> member with the key envelope:<id>:<member> and `balance.changed` + `envelope.grabbed`.
   * The unique index on (envelope, member) makes a second grab of the same player fail even when both
   * run at once (unique_violation: ENVELOPE_ALREADY_GRABBED).
   * Under load the grabs of one envelope share a statement and a commit (GRAB_BATCH_MAX, migration 068)
   * with the same checks and answers; quiet, a grab runs at once and alone.
   */
  async function grab(m: { code: string; currency: string }, memberId: number, envelopeId: number): Promise<TGrabValue> {
    const requestId = currentRequestId() ?? null;
    if (batchMax <= 1) return answer(envelopeId, await grabAlone(m.code, memberId, envelopeId, requestId));
    const key = `${m.code}:${envelopeId}:${lane(envelopeId, memberId)}`;
    const first = queues.get(key)?.members.get(memberId);
    if (first) {
      // A second click while the player's first grab of this envelope waits or runs on this node: the
      // first's answer (ENVELOPE_ALREADY_GRABBED when it got a share), as for a double click in one batch.
      // In another statement it would wait on the unique (envelope, member) index for the first and,
      // once that committed, abort its whole batch (every grab of it run again alone: measured, a 10,000-
      // socket storm's second batch took 1.8 s and sent 500 grabs alone). If the first failed, this one runs.
      const r = await first.then((x) => x, () => null);
      if (r) {
        stats.grabsJoined++;
        return answer(envelopeId, r.o_outcome === 'ok' ? { ...r, o_outcome: 'already_grabbed' } : r);
      }
    }
    const q: GrabQueue = queues.get(key) ?? { merchant: m.code, envelopeId, waiting: [], inFlight: 0, members: new Map() };
    queues.set(key, q);
    const out = new Promise<GrabOut>((resolve, reject) => {
      q.waiting.push({ memberId, requestId, resolve, reject });
      flushGrabs(key, q);
    });
    if (!q.members.has(memberId)) q.members.set(memberId, out);
    try {
      return answer(envelopeId, await out);
    } finally {
      if (q.members.get(memberId) === out) q.members.delete(memberId);
    }
  }

  /** The answer of a grab from its row (committed when 'ok'): the refusal, or the value and the post-commit work. */
  function answer(envelopeId: number, r: GrabOut): TGrabValue {
    if (r.o_outcome === 'rg_excluded') {
      throw new AppError(ErrorCode.RG_EXCLUDED, undefined, undefined, { until: r.o_rg_until === null ? null : iso(r.o_rg_until), kind: r.o_rg_kind });
    }
    if (r.o_outcome !== 'ok') throw new AppError(GRAB_REFUSALS[r.o_outcome]);
    // Committed: wake the relay for the two events, count the transfer (as ledger.ts does after commit).
    wakeRelays();
    onLedgerTransferCommitted();
    // Not awaited: the live count is not the grab's answer (see scheduleLeft).
    void scheduleLeft(envelopeId);
    return { envelopeId: String(envelopeId), amount: Number(r.o_amount!), transferId: String(r.o_transfer!), balance: Number(r.o_balance!), available: Number(r.o_available!) };
  }

  /**
   * One grab alone, one round trip (red_envelope_grab in its own transaction). It waits for a share
   * held by a running grab holding nothing (063), so it is also where a batch's 'busy' grabs go.
   */
  async function grabAlone(merchant: string, memberId: number, envelopeId: number, requestId: string | null): Promise<GrabOut> {
    // The function is one statement in its own transaction: were PostgreSQL to pick it as a deadlock
    // victim (40P01), nothing of it stayed, so it is run again (the ledger key makes a repeat pay at most once).
    for (let attempt = 1; ; attempt++) {
      try {
        return (await db.query<GrabOut>(GRAB_SQL, [merchant, envelopeId, memberId, SYSTEM_SHARDS, requestId])).rows[0]!;
      } catch (err) {
        if (isSecondShare(err)) throw new AppError(ErrorCode.ENVELOPE_ALREADY_GRABBED);
        if (sqlError(err).code === LEDGER_KEY_MISMATCH_SQLSTATE) throw new AppError(ErrorCode.IDEMPOTENCY_MISMATCH);
        if (sqlError(err).code === '40P01' && attempt < GRAB_ATTEMPTS) {
          stats.grabRetries++;
          continue;
        }
        throw err;
      }
    }
  }

  type WaitingGrab = { memberId: number; requestId: string | null; resolve(r: GrabOut): void; reject(err: unknown): void };
  /** members: each player's grab waiting or in flight here (a second click joins it, see grab). */
  type GrabQueue = { merchant: string; envelopeId: number; waiting: WaitingGrab[]; inFlight: number; members: Map<number, Promise<GrabOut>> };
  /** Grabs waiting for a statement, per envelope and lane (merchant:envelope:lane), on this node. */
  const queues = new Map<string, GrabQueue>();
  /**
   * A grab's lane: its ledger key's escrow shard row (as ledger_transfer picks it: the first two bytes of
   * sha256(key) mod SYSTEM_SHARDS) modulo the lanes. Each lane of an envelope has one statement in
   * flight, and two lanes' statements lock disjoint escrow rows (and disjoint players, accounts and
   * audiences), so they run side by side instead of one waiting for the other's commit (a batch of 500
   * locks ~220 of the 256 rows). batchesInFlight lanes (1: one statement at a time per envelope).
   */
  const lanes = Number.isFinite(batchesInFlight) ? Math.max(1, Math.min(batchesInFlight, SYSTEM_SHARDS)) : 1;
  function lane(envelopeId: number, memberId: number): number {
    if (lanes === 1) return 0;
    return shardOfKey(grabKey(envelopeId, memberId)) % lanes;
  }

  function flushGrabs(key: string, q: GrabQueue) {
    while (q.waiting.length && q.inFlight < 1) {
      const batch = q.waiting.splice(0, batchMax);
      q.inFlight++;
      runBatch(q.merchant, q.envelopeId, batch).finally(() => {
        q.inFlight--;
        if (!q.waiting.length && !q.inFlight) queues.delete(key);
        else flushGrabs(key, q);
      });
    }
  }

  /** A waiting grab run alone: its row, or its error (a refusal as AppError). */
  function alone(merchant: string, envelopeId: number, w: WaitingGrab) {
    return grabAlone(merchant, w.memberId, envelopeId, w.requestId).then(w.resolve, w.reject);
  }

  /**
   * One statement for the batch (alone when it is one grab). Every grab of the batch is answered: its
   * row; a later request of the same player in the batch (a double click) ENVELOPE_ALREADY_GRABBED when
   * the first got a share, else the first's refusal; 'busy' run again alone; when the statement fails,
   * nothing of it committed: each grab is run again alone (runAloneAfter) or fails with the error.
   */
  async function runBatch(merchant: string, envelopeId: number, batch: WaitingGrab[]): Promise<void> {
    if (batch.length === 1) {
      await alone(merchant, envelopeId, batch[0]!);
      return;
    }
    stats.grabBatches++;
    stats.grabsBatched += batch.length;
    let rows: GrabManyOut[];
    try {
      rows = (await db.query<GrabManyOut>(GRAB_MANY_SQL, [merchant, envelopeId, batch.map((w) => w.memberId), SYSTEM_SHARDS, batch.map((w) => w.requestId)])).rows;
    } catch (err) {
      if (!runAloneAfter(err)) {
        for (const w of batch) w.reject(err);
        return;
      }
      stats.grabsAfterBatchError += batch.length;
      await Promise.all(batch.map((w) => alone(merchant, envelopeId, w)));
      return;
    }
    const byMember = new Map(rows.map((r) => [Number(r.o_member), r]));
    const answered = new Set<number>();
    const again: WaitingGrab[] = [];
    for (const w of batch) {
      const r = byMember.get(w.memberId);
      if (!r) {
        w.reject(new Error(`red_envelope_grab_many gave no row for member ${w.memberId}`));
      } else if (r.o_outcome === 'busy') {
        again.push(w);
      } else if (answered.has(w.memberId)) {
        w.resolve(r.o_outcome === 'ok' ? { ...r, o_outcome: 'already_grabbed' } : r as GrabOut);
      } else {
        answered.add(w.memberId);
        w.resolve(r as GrabOut);
      }
    }
    stats.grabsBusy += again.length;
    await Promise.all(again.map((w) => alone(merchant, envelopeId, w)));
  }

  /**
   * After a grab committed: the live count for everyone else, throttled. The first grab of a window on
   * this node enqueues (the job key dedups across nodes) a job due at the window's end, which sends the
   * count once the grabs have calmed (leftJob): at most one broadcast per envelope per window, fewer in a
   * storm, and the last count of a storm is always sent. Off the grab's answer: the grab does not wait for it, and a
   * failed enqueue does not fail the grab (the money moved): the next grab's window sends the count. The
   * done job rows are pruned by the queue (ENVELOPE_LEFT_KEEP_MS).
   */
  async function scheduleLeft(envelopeId: number) {
    if (!deps.jobs) return;
    const window = Math.floor(Date.now() / ENVELOPE_LEFT_WINDOW_MS);
    if (leftWindows.get(envelopeId) === window) return;
    leftWindows.set(envelopeId, window);
    if (leftWindows.size > 1000) {
      for (const [id, w] of leftWindows) if (w < window) leftWindows.delete(id);
    }
    try {
      await deps.jobs.enqueue(ENVELOPE_LEFT_JOB, { id: String(envelopeId) },
        { key: `envelope-left-${envelopeId}-${window}`, runAt: new Date((window + 1) * ENVELOPE_LEFT_WINDOW_MS), maxAttempts: 3 });
    } catch {
      leftWindows.delete(envelopeId);
    }
  }

  /** The count to the drop's audience (a targeted drop: the targets who have not grabbed), and when it went. */
  async function announceLeft(tx: Tx, e: EnvelopeRow, left: number): Promise<number> {
    const targets = e.audience_kind === 'all' ? null : (await tx.query<{ member_id: number }>(
      `SELECT t.member_id FROM red_envelope_targets t WHERE t.envelope_id = $1
         AND NOT EXISTS (SELECT 1 FROM red_envelope_shares s WHERE s.envelope_id = t.envelope_id AND s.member_id = t.member_id) ORDER BY t.member_id`,
      [e.id])).rows.map((x) => Number(x.member_id));
    if (!targets || targets.length) await announce(tx, e, targets, 'envelope.left', { envelopeId: String(e.id), left });
    await tx.query('UPDATE red_envelopes SET left_sent_at = now(), left_sent = $2 WHERE id = $1', [e.id, left]);
    return left;
  }

  /**
   * The `envelope.left` job (one per window in which someone grabbed): sends the count of free shares
   * to the drop's audience (a targeted drop: the targets who have not grabbed; nothing once it closed),
   * in the job's transaction, but only once the grabs have calmed (no grab in the last
   * ENVELOPE_LEFT_QUIET_MS), when the envelope is empty, or when ENVELOPE_LEFT_MAX_WAIT_MS passed since
   * the last count (or the drop).
   * Otherwise it sends nothing and enqueues the next window's job in its own transaction (the key the
   * next window's grabs enqueue too): the count of a storm goes out when it ends, never lost. A count
   * equal to the last one sent is not sent again (two jobs left at the end of a storm). Returns the count
   * sent, 'deferred', 'unchanged', or null (closed or unknown).
   */
  async function leftJob(envelopeId: number, completeIn?: (tx: Tx) => Promise<void>): Promise<number | 'deferred' | 'unchanged' | null> {
    return db.tx(async (tx) => {
      // One count job of an envelope at a time (two windows' jobs on one queue, or on two nodes): the
      // second waits here, then reads the first's left_sent in its own statement and sends nothing if
      // the count is the same (seen on PostgreSQL: the same count twice from two jobs at once).
      await tx.query('SELECT 1 FROM red_envelopes WHERE id = $1 FOR UPDATE', [envelopeId]);
      const e = (await tx.query<EnvelopeRow & { shares_left: number; busy: boolean; recent: boolean; left_sent: number | null }>(
        `SELECT e.*, s.shares_left, COALESCE(s.last_claim > now() - make_interval(secs => $2), false) AS busy,
                COALESCE(e.left_sent_at, e.created_at) > now() - make_interval(secs => $3) AS recent
           FROM red_envelopes e,
                LATERAL (SELECT (count(*) FILTER (WHERE ${FREE_SHARE_SQL}))::int AS shares_left, max(s.claimed_at) AS last_claim
                           FROM red_envelope_shares s WHERE s.envelope_id = e.id) s
          WHERE e.id = $1`, [envelopeId, ENVELOPE_LEFT_QUIET_MS / 1000, ENVELOPE_LEFT_MAX_WAIT_MS / 1000])).rows[0];
      let out: number | 'deferred' | 'unchanged' | null = null;
      if (e && e.status === 'open') {
        const left = Number(e.shares_left);
        if (e.left_sent !== null && Number(e.left_sent) === left) {
          out = 'unchanged';
        } else if (left > 0 && e.busy && e.recent && deps.jobs) {
          const window = Math.floor(Date.now() / ENVELOPE_LEFT_WINDOW_MS) + 1;
          await deps.jobs.enqueue(ENVELOPE_LEFT_JOB, { id: String(envelopeId) },
            { key: `envelope-left-${envelopeId}-${window}`, runAt: new Date((window + 1) * ENVELOPE_LEFT_WINDOW_MS), maxAttempts: 3 }, tx);
          out = 'deferred';
        } else {
          out = await announceLeft(tx, e, left);
        }
      }
      if (completeIn) await completeIn(tx);
      return out;
    });
  }

  /** The open envelopes this player may still grab (a page loaded after the drop shows them). */
  async function open(merchant: string, memberId: number): Promise<TOpenEnvelope[]> {
    const r = await db.query<EnvelopeRow & WithLeft>(
      `SELECT e.*, ${SHARES_LEFT_SQL}
       FROM red_envelopes e
       WHERE e.merchant_code = $1 AND e.status = 'open' AND e.expires_at > now()
         AND (e.audience_kind = 'all' OR EXISTS (SELECT 1 FROM red_envelope_targets t WHERE t.envelope_id = e.id AND t.member_id = $2))
         AND NOT EXISTS (SELECT 1 FROM red_envelope_shares s WHERE s.envelope_id = e.id AND s.member_id = $2)
         AND EXISTS (SELECT 1 FROM red_envelope_shares s WHERE s.envelope_id = e.id AND ${FREE_SHARE_SQL})
         AND ${notExcludedSql('$2::bigint')}
       ORDER BY e.id DESC LIMIT 20`,
      [merchant, memberId]);
    return r.rows.map(toOpenEnvelope);
  }

  async function history(merchant: string, memberId: number, pageNo: number, pageSize: number) {
    const r = await db.query<{ envelope_id: number; amount: number; claimed_at: Date | string; message_en: string | null; message_ty: string | null; total: number }>(
      `SELECT s.envelope_id, s.amount, s.claimed_at, e.message_en, e.message_ty, count(*) OVER ()::int AS total
       FROM red_envelope_shares s JOIN red_envelopes e ON e.id = s.envelope_id
       WHERE s.member_id = $1 AND e.merchant_code = $2 ORDER BY s.claimed_at DESC, s.envelope_id DESC LIMIT $3 OFFSET $4`,
      [memberId, merchant, pageSize, (pageNo - 1) * pageSize]);
    const list: TGrabRecord[] = r.rows.map((x) => ({
      envelopeId: String(x.envelope_id), amount: x.amount, grabbedAt: iso(x.claimed_at), message: { en: x.message_en, ty: x.message_ty },
    }));
    return { list, pageNo, pageSize, total: r.rows[0]?.total ?? 0 };
  }

  async function list(merchant: string, pageNo: number, pageSize: number) {
    const r = await db.query<EnvelopeRow & Stats & { total: number }>(
      `SELECT e.*, g.grabbed_count, g.grabbed_amount, count(*) OVER ()::int AS total FROM red_envelopes e
       CROSS JOIN LATERAL (SELECT count(s.member_id)::int AS grabbed_count, COALESCE(sum(s.amount) FILTER (WHERE s.member_id IS NOT NULL), 0)::bigint AS grabbed_amount
                           FROM red_envelope_shares s WHERE s.envelope_id = e.id) g
       WHERE e.merchant_code = $1 ORDER BY e.id DESC LIMIT $2 OFFSET $3`,
      [merchant, pageSize, (pageNo - 1) * pageSize]);
    return { list: r.rows.map(toOpsEnvelope), pageNo, pageSize, total: r.rows[0]?.total ?? 0 };
  }

  /**
   * Expiry (the job's work): the envelope closes, every share still free is marked returned, and their
   * sum goes escrow -> house in ONE transfer (key envelope:<id>:refund), all in the job's transaction,
   * so it happens once however often the job runs. A grab running at the same moment either holds its
   * share (this waits for it) or finds the share returned.
   */
  async function expire(envelopeId: number, completeIn?: (tx: Tx) => Promise<void>): Promise<{ refunded: number } | null> {
    return db.tx(async (tx) => {
      const e = (await tx.query<EnvelopeRow>(
        `UPDATE red_envelopes SET status = 'expired' WHERE id = $1 AND status = 'open' AND expires_at <= now() RETURNING *`, [envelopeId])).rows[0];
      if (!e) {
        const s = (await tx.query<{ status: string }>('SELECT status FROM red_envelopes WHERE id = $1', [envelopeId])).rows[0];
        if (s?.status === 'open') throw new Error(`envelope ${envelopeId} is not due yet`);
        if (completeIn) await completeIn(tx);
        return null;
      }
      if (completeIn) await completeIn(tx);
      const left = await tx.query<{ amount: number }>(
        `UPDATE red_envelope_shares s SET refunded_at = now() WHERE s.envelope_id = $1 AND ${FREE_SHARE_SQL} RETURNING s.amount`, [envelopeId]);
      const refunded = left.rows.reduce((a, x) => a + Number(x.amount), 0);
      let transferId: number | null = null;
      if (refunded > 0) {
        // Back to the account that funded it (its fund transfer's debit account: the house, or a promotion's cost account).
        const funder = (await tx.query<{ kind: EnvelopeFunding }>(
          'SELECT a.kind FROM ledger_transfers t JOIN ledger_accounts a ON a.id = t.debit_account_id WHERE t.id = $1', [e.fund_transfer_id])).rows[0]?.kind ?? 'house';
        transferId = (await transfer(tx, {
          merchant: e.merchant_code, currency: e.currency, key: `envelope:${envelopeId}:refund`, kind: 'envelope.refund',
          debit: { system: 'envelope' }, credit: { system: funder }, amount: refunded, memo: { envelopeId: String(envelopeId), shares: left.rows.length, refundedTo: funder },
        })).transferId;
      }
      await tx.query('UPDATE red_envelopes SET refunded_amount = $2, refund_transfer_id = $3 WHERE id = $1', [envelopeId, refunded, transferId]);
      const targets = e.audience_kind === 'all' ? null
        : (await tx.query<{ member_id: number }>('SELECT member_id FROM red_envelope_targets WHERE envelope_id = $1 ORDER BY member_id', [envelopeId])).rows.map((x) => Number(x.member_id));
      await announce(tx, e, targets, 'envelope.closed', { envelopeId: String(envelopeId), reason: 'expired' });
      return { refunded };
    });
  }

  return { drop, dropIn, grab, open, history, list, expire, leftJob, stats };
}
export type RedEnvelopes = ReturnType<typeof createRedEnvelopes>;

export function registerRedEnvelopeJobs(jobs: JobQueue, envelopes: RedEnvelopes) {
  jobs.define<{ id: string }>(ENVELOPE_EXPIRE_JOB, async (job) => {
    await envelopes.expire(Number(job.payload.id), (tx) => job.completeIn(tx));
  });
  jobs.define<{ id: string }>(ENVELOPE_LEFT_JOB, async (job) => {
    await envelopes.leftJob(Number(job.payload.id), (tx) => job.completeIn(tx));
  }, { maxAttempts: 3, keepMs: ENVELOPE_LEFT_KEEP_MS });
}
