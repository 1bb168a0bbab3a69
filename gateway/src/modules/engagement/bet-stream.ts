import { Histogram, Counter } from 'prom-client';
import { prepared, type Db, type Tx } from '../../db/db.ts';
import { registry } from '../../obs/metrics.ts';
import { anyPending, createPassRunner, startIdlePoll } from '../../db/pass-runner.ts';
import { createPendingVacuum } from '../../db/pending-vacuum.ts';

/**
 * The bet stream (migration 044): every accepted bet, paid win and rolled-back bet of real money, once,
 * for the modules that follow play (bonus wagering, points, missions, leaderboards, rebates).
 *
 * A trigger on vendor_transactions lists each fact in bet_stream_pending inside the vendor call's own
 * transaction. The drain takes a batch off that table (one node at a time: advisory transaction lock;
 * in id order) and hands it to every registered consumer IN THE SAME TRANSACTION, so a consumer's
 * effects (its rows, its ledger transfers, its outbox events) commit together with the removal of the
 * facts: exactly once across nodes and restarts, never lost. A consumer that throws rolls the batch back;
 * the drain then retries the facts one at a time and parks (bet_stream_parked, with the error) only
 * the fact that fails on its own, so one bad fact cannot stop the stream.
 *
 * Latency: every local vendor money call that went through (the only writer of vendor_transactions,
 * hence of facts) wakes the drain (wakeBetStream), and a poll picks up facts committed on other nodes;
 * passes start at most every minGapMs so that under load one pass serves many bets. Other commits
 * (every outbox event) do not wake it: a pass is a transaction, and one per event committed elsewhere
 * cost the event path round trips and PostgreSQL work for nothing (issue 12, lean fan-out).
 */

type Waker = () => void;
const wakers = new Set<Waker>();

/** After a vendor money call committed (vendor_money may have listed a bet fact): wake local drains. */
export function wakeBetStream() {
  for (const w of wakers) w();
}

export type BetFactKind = 'bet' | 'win' | 'bet_rolled_back';

export type BetFact = {
  /** bet_stream_pending.id: increasing in the order facts were captured. */
  streamId: number;
  fact: BetFactKind;
  merchantCode: string;
  memberId: number;
  vendor: string;
  transactionId: string;
  roundId: string;
  gameCode: string | null;
  /** games.game_type of the game (its catalogue type), null when the game is not in the catalogue. */
  gameType: string | null;
  /** Minor units, > 0 for wins; for bet_rolled_back, the amount of the bet that was rolled back. */
  amount: number;
  /** When the vendor call was recorded (vendor_transactions.created_at). */
  placedAt: Date;
  /** When the fact was captured (its commit is at or after this). */
  capturedAt: Date;
};

export type BetStreamConsumer = {
  /** For logs and metrics. */
  name: string;
  /**
   * Apply a batch (in stream order). Runs inside the drain's transaction: write with `tx` only, emit
   * events with emitEvent/emitEvents(tx, ...), and do not catch errors you cannot handle: a throw rolls
   * the whole batch back (it will be retried, then the failing fact parked).
   */
  handle(tx: Tx, facts: readonly BetFact[]): Promise<void>;
};

const LOCK = 7_242_044;
const BATCH = 500;

const lagSeconds = new Histogram({
  name: 'portal_bet_stream_lag_seconds',
  help: 'Capture-to-consumed time of the oldest fact of each bet-stream pass',
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60],
  registers: [registry],
});
const factsConsumed = new Counter({
  name: 'portal_bet_stream_facts_total',
  help: 'Bet-stream facts consumed, and parked after a consumer failed on them',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

type Row = {
  id: number; fact: BetFactKind; merchant_code: string; vendor: string; transaction_id: string; at: Date | string;
  member_id: number; round_id: string; game_code: string | null; amount: number; created_at: Date | string; game_type: string | null;
};

/** Is anything pending? The poll's question: one autocommitted round trip, no lock. */
const PENDING_SQL = prepared('SELECT EXISTS (SELECT 1 FROM bet_stream_pending) AS any');
/** A quiet node's poll waits up to 2^2 = 4 x pollMs (1 s at the gateway's 250 ms); a local pass rearms it. */
const IDLE_BACKOFF_STEPS = 2;

/** Takes up to $1 facts off the pending list if this transaction gets the drain lock (else none). */
const CLAIM_SQL = `WITH lock AS (SELECT pg_try_advisory_xact_lock(${LOCK}) AS ok),
  next AS (
    DELETE FROM bet_stream_pending p WHERE p.id = ANY (ARRAY(
      SELECT id FROM bet_stream_pending WHERE (SELECT ok FROM lock) ORDER BY id LIMIT $1 FOR UPDATE
    )) RETURNING p.*
  )
  SELECT n.id, n.fact, n.merchant_code, n.vendor, n.transaction_id, n.at,
         v.member_id, v.round_id, v.game_code, v.amount, v.created_at, g.game_type
    FROM next n
    JOIN vendor_transactions v ON v.merchant_code = n.merchant_code AND v.vendor = n.vendor AND v.transaction_id = n.transaction_id
    LEFT JOIN games g ON g.merchant_code = n.merchant_code AND g.vassalage = n.vendor AND g.game_code = v.game_code
   ORDER BY n.id`;

const toDate = (v: Date | string) => (v instanceof Date ? v : new Date(v));

function toFact(r: Row): BetFact {
  return {
    streamId: Number(r.id), fact: r.fact, merchantCode: r.merchant_code, memberId: Number(r.member_id), vendor: r.vendor,
    transactionId: r.transaction_id, roundId: r.round_id, gameCode: r.game_code, gameType: r.game_type, amount: Number(r.amount),
    placedAt: toDate(r.created_at), capturedAt: toDate(r.at),
  };
}

type Log = { warn(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };

export type BetStream = {
  /** Add a consumer (at startup: facts drained before a consumer is registered are not shown to it). */
  register(consumer: BetStreamConsumer): void;
  start(): void;
  /** Wake the drain now (tests and callers that know they just committed a fact). */
  kick(): void;
  /** Vacuums of bet_stream_pending this drain ran (tests). */
  vacuums(): number;
  /** Drain everything pending now and resolve when nothing is left (the test clock). Returns facts consumed. */
  drainNow(): Promise<number>;
  stop(): Promise<void>;
};

export function createBetStream(deps: { db: Db; log: Log; pollMs?: number; minGapMs?: number; vacuumAfterRows?: number; vacuumEveryMs?: number }): BetStream {
  const { db, log } = deps;
  const pollMs = deps.pollMs ?? 1000;
  const minGapMs = deps.minGapMs ?? 10;
  const consumers: BetStreamConsumer[] = [];
  let started = false;
  let stopped = false;
  let poll: ReturnType<typeof startIdlePoll> | null = null;
  let unsubscribe: (() => void) | null = null;
  /** After a failed batch, the next passes take one fact at a time until one succeeds. */
  let single = false;
  const vacuum = createPendingVacuum(db, 'bet_stream_pending', log, deps.vacuumAfterRows, deps.vacuumEveryMs);

  /** One batch in one transaction. Returns facts consumed (0: nothing pending or lock held elsewhere). */
  async function pass(limit: number): Promise<number> {
    return db.tx(async (tx) => {
      const rows = (await tx.query<Row>(CLAIM_SQL, [limit])).rows;
      if (!rows.length) return 0;
      const facts = rows.map(toFact);
      for (const c of consumers) await c.handle(tx, facts);
      lagSeconds.observe(Math.max(0, (Date.now() - facts[0]!.capturedAt.getTime()) / 1000));
      factsConsumed.inc({ outcome: 'consumed' }, facts.length);
      return facts.length;
    });
  }

  /** Park the oldest pending fact with the error its consumer threw when it was processed alone. */
  async function parkOldest(err: unknown) {
    const text = (err instanceof Error ? `${err.name}: ${err.message}` : String(err)).slice(0, 2000);
    await db.tx(async (tx) => {
      const r = await tx.query<{ id: number }>(
        `WITH lock AS (SELECT pg_try_advisory_xact_lock(${LOCK}) AS ok),
              gone AS (DELETE FROM bet_stream_pending WHERE id = (SELECT id FROM bet_stream_pending WHERE (SELECT ok FROM lock) ORDER BY id LIMIT 1 FOR UPDATE) RETURNING *)
         INSERT INTO bet_stream_parked (id, merchant_code, vendor, transaction_id, fact, at, error)
         SELECT id, merchant_code, vendor, transaction_id, fact, at, $1 FROM gone RETURNING id`,
        [text],
      );
      if (r.rows[0]) {
        factsConsumed.inc({ outcome: 'parked' });
        log.error({ err, streamId: r.rows[0].id }, 'bet stream: a consumer failed on this fact alone; parked in bet_stream_parked');
      }
    });
  }

  async function drain(): Promise<number> {
    let total = 0;
    for (;;) {
      let n: number;
      try {
        n = await pass(single ? 1 : BATCH);
        single = false;
      } catch (err) {
        if (!single) {
          single = true;
          log.warn({ err }, 'bet stream: batch failed; retrying its facts one at a time');
          continue;
        }
        await parkOldest(err);
        continue;
      }
      total += n;
      vacuum.done(n);
      if (n < BATCH || stopped) {
        await vacuum.maybe();
        return total;
      }
    }
  }

  let lastPassFailed = false;
  const runner = createPassRunner({
    minGapMs,
    stopped: () => !started || stopped,
    async pass() {
      poll?.rearm();
      try {
        await drain();
        lastPassFailed = false;
      } catch (err) {
        lastPassFailed = true;
        if (!stopped) log.warn({ err }, 'bet stream pass failed');
      }
    },
  });
  const kick = runner.kick;

  return {
    register(consumer) {
      consumers.push(consumer);
    },
    start() {
      if (started) return;
      started = true;
      const wake = runner.kickSoon;
      wakers.add(wake);
      unsubscribe = () => wakers.delete(wake);
      /**
       * The poll (facts committed on other nodes, or left while another node held the lock): one
       * autocommitted question, and a pass (a transaction with the lock) only when something is
       * pending; slowed down to 2^IDLE_BACKOFF_STEPS x pollMs on a quiet node (startIdlePoll). It was
       * a whole pass every pollMs, four transactions a second on an idle node, then a question every pollMs.
       */
      poll = startIdlePoll({
        runner,
        pollMs,
        backoffSteps: IDLE_BACKOFF_STEPS,
        anyPending: anyPending(db, PENDING_SQL),
        mustRun: () => lastPassFailed,
        stopped: () => stopped,
      });
      // What is pending from before the start is drained at once.
      kick();
    },
    kick,
    vacuums: () => vacuum.runs(),
    async drainNow() {
      await runner.idle();
      let total = 0;
      // Another node (or this node's own pass) may hold the lock: wait until nothing is pending.
      for (let i = 0; i < 200; i++) {
        total += await drain();
        const left = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM bet_stream_pending');
        if (!left.rows[0]!.n) return total;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error('bet stream: facts still pending after drainNow');
    },
    async stop() {
      stopped = true;
      unsubscribe?.();
      poll?.stop();
      await runner.idle();
    },
  };
}
