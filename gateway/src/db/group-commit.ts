import { createRequire } from 'node:module';
import pg from 'pg';
import { PgQuery, type PgConnection } from './pg-query.ts';
import { groupCommits, singleStatements } from '../obs/metrics.ts';

/**
 * Group commit for one-statement transactions (db.single on PostgreSQL).
 *
 * A one-statement transaction costs PostgreSQL a transaction start, a commit record and a WAL flush,
 * and costs the gateway a round trip: at saturation that, not the statement, is most of the work of a
 * durable event (issue 12: the gateway's durable events per second against the bare commit). At most
 * `inFlight` statements or batches run at once; the statements that wait meanwhile go together: written
 * to ONE connection in one write, each with its own Bind/Execute, before ONE Sync, which PostgreSQL runs
 * as one implicit transaction, committed once (PostgreSQL's protocol docs, "Pipelining"). While fewer
 * than `inFlight` are running every statement runs alone as before, so a quiet node pays for it only
 * the wait until the end of the event loop's turn.
 *
 * Who uses it: db.single's callers, one-statement transactions (a lone event). Not the vendor money
 * call and not the red envelope grab: their SQL functions lock a system account's shard chosen by the
 * transfer's key, so two batches of them would lock shards in different orders and deadlock, and the
 * grab has its own batching by envelope (red_envelope_grab_many). Two batches of events can deadlock
 * only when both hold two audiences in opposite orders (one member's events in two batches at once,
 * with another audience in common); PostgreSQL then refuses one of them and its statements run alone.
 *
 * What each caller sees is what it saw alone: its statement's own result, only once its statement is
 * committed (the batch's commit), and its afterCommit hooks after that. The batch behaves as its
 * statements run one after the other in arrival order, each seeing the writes of those before it.
 * If any statement of a batch fails, PostgreSQL rolls the whole batch back (nothing of it committed)
 * and every statement of it runs again alone, so a failure (a business refusal raised as an error, a
 * deadlock victim) is each caller's own, exactly as without batching. An error that is not
 * PostgreSQL's answer (the connection lost) leaves the outcome unknown, as it does for a statement
 * alone: it goes to every caller of the batch, none is run again.
 *
 * Transaction-local settings: a statement's request id (`set_config('portal.request_id', ..., true)`,
 * its prelude) holds for the rest of the transaction, so a statement without one that follows one with
 * one in a batch gets it reset to '' first (the outbox's request_id column reads '' as none).
 */

/** A statement of a batch: its query and its prelude (the request id's set_config, or null). */
type BatchItem = { config: pg.QueryConfig; prelude: string | null };

const RESET_REQUEST_ID = "SELECT set_config('portal.request_id', '', true)";

/**
 * Several statements before one Sync. Every statement (preludes included) is described, so each one
 * answers a RowDescription or NoData and a CommandComplete: pg's Query collects one Result per
 * statement, in order. A named statement this connection has not parsed is parsed under its name here
 * and recorded as parsed at once: if the batch fails the caller discards the connection (it cannot tell
 * which Parse ran), so the record is never wrong on a connection still in use.
 */
class BatchQuery extends PgQuery<pg.QueryResult | pg.QueryResult[]> {
  /** Index in the statement list of each item's own statement. */
  readonly statementIndex: number[] = [];
  constructor(private readonly items: readonly BatchItem[], callback: (err: Error | null, res: pg.QueryResult[]) => void) {
    super({ text: 'group commit' }, undefined, (err, res) => callback(err, Array.isArray(res) ? res : [res]));
  }
  override requiresPreparation() {
    return true;
  }
  override prepare(connection: PgConnection) {
    let n = 0;
    let ridSet = false;
    const plain = (text: string) => {
      connection.parse({ text, name: '', types: [] });
      connection.bind({ portal: '', statement: '', values: [] });
      connection.describe({ type: 'P', name: '' });
      connection.execute({ portal: '', rows: 0 });
      n++;
    };
    for (const item of this.items) {
      if (item.prelude) {
        plain(item.prelude);
        ridSet = true;
      } else if (ridSet) {
        plain(RESET_REQUEST_ID);
        ridSet = false;
      }
      const { text, name = '', values = [] } = item.config;
      if (!name || connection.parsedStatements[name] === undefined) {
        connection.parse({ text, name, types: [] });
        if (name) connection.parsedStatements[name] = text;
      }
      connection.bind({ portal: '', statement: name, values, valueMapper: prepareValue });
      connection.describe({ type: 'P', name: '' });
      connection.execute({ portal: '', rows: 0 });
      this.statementIndex.push(n++);
    }
    connection.sync();
  }
}

/** pg's own mapping of JavaScript values to parameters (what its Query binds with). */
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils') as { prepareValue: (v: unknown) => unknown };

/** What a statement answers: a batch gives pg's Result, a statement alone what `alone` gives. */
export type StatementResult = { rows: unknown[]; rowCount: number | null };

type Waiting = {
  config: pg.QueryConfig;
  prelude: string | null;
  alone: () => Promise<StatementResult>;
  resolve: (r: StatementResult) => void;
  reject: (e: unknown) => void;
};

export type GroupCommitStats = {
  /** Statements that ran alone (no others waiting, or run again after their batch failed). */
  alone: number;
  /** Batches committed or tried, and the statements they carried. */
  batches: number;
  batched: number;
  /** Batches that PostgreSQL refused (every statement of them then ran alone). */
  batchesFailed: number;
};

/**
 * Runs one-statement transactions on `pool`, at most `inFlight` statements or batches at once: those
 * that arrive while all places are taken wait, and go together (at most `max` a batch) when one returns.
 */
export function createGroupCommit(opts: {
  pool: pg.Pool;
  inFlight: number;
  max: number;
}) {
  const queue: Waiting[] = [];
  let running = 0;
  const stats: GroupCommitStats = { alone: 0, batches: 0, batched: 0, batchesFailed: 0 };

  const aloneCount = singleStatements.labels({ how: 'alone' });
  const batchedCount = singleStatements.labels({ how: 'batched' });
  const committedCount = groupCommits.labels({ outcome: 'committed' });
  const refusedCount = groupCommits.labels({ outcome: 'refused' });

  function alone(w: Waiting): Promise<void> {
    stats.alone++;
    aloneCount.inc();
    return w.alone().then(w.resolve, w.reject);
  }

  async function batch(ws: Waiting[]): Promise<void> {
    if (ws.length === 1) return alone(ws[0]!);
    stats.batches++;
    stats.batched += ws.length;
    let client: pg.PoolClient;
    try {
      client = await opts.pool.connect();
    } catch (err) {
      for (const w of ws) w.reject(err);
      return;
    }
    let results: pg.QueryResult[];
    try {
      results = await new Promise<pg.QueryResult[]>((resolve, reject) => {
        const q = new BatchQuery(ws, (err, all) =>
          err ? reject(err) : resolve(q.statementIndex.map((i) => all[i]!)));
        client.query(q);
      });
    } catch (err) {
      // Which named statements the server parsed before the error is unknown: the connection goes.
      client.release(true);
      if (err instanceof pg.DatabaseError) {
        // PostgreSQL's own answer: the implicit transaction rolled back, nothing of the batch committed.
        stats.batchesFailed++;
        refusedCount.inc();
        await Promise.all(ws.map(alone));
      } else {
        for (const w of ws) w.reject(err);
      }
      return;
    }
    client.release();
    committedCount.inc();
    batchedCount.inc(ws.length);
    ws.forEach((w, i) => w.resolve(results[i]!));
  }

  let pumpScheduled = false;
  /**
   * Start what fits: the waiting statements split evenly over the free places (a share of one runs
   * alone). Deferred to the end of the event loop's turn, so statements that arrive in the same turn
   * (the callers of a batch that just committed, issuing their next statement) are seen together and
   * the batches stay even, instead of the first of them taking a free place alone each time.
   */
  function schedulePump() {
    if (pumpScheduled) return;
    pumpScheduled = true;
    setImmediate(pump);
  }
  function pump() {
    pumpScheduled = false;
    const free = opts.inFlight - running;
    if (free <= 0 || !queue.length) return;
    const n = Math.min(free, queue.length);
    const size = Math.min(opts.max, Math.ceil(queue.length / n));
    for (let k = 0; k < n && queue.length; k++) {
      const ws = queue.splice(0, size);
      running++;
      // batch() settles every caller itself; should it throw all the same, none is left waiting.
      void batch(ws).catch((err) => ws.forEach((w) => w.reject(err))).finally(done);
    }
  }
  function done() {
    running--;
    if (queue.length) schedulePump();
  }

  return {
    stats,
    /**
     * One statement (`prelude`: its request id's set_config, or null), committed alone or in a batch;
     * `alone` runs it as its own transaction, when there is room or after its batch failed.
     */
    run(config: pg.QueryConfig, prelude: string | null, alone: () => Promise<StatementResult>): Promise<StatementResult> {
      return new Promise<StatementResult>((resolve, reject) => {
        // Parameters mapped now (pg's own mapping, which leaves mapped values as they are): a value
        // that cannot be sent fails its own caller here, never a whole batch on the wire.
        try {
          if (config.values?.length) config = { ...config, values: config.values.map((v) => prepareValue(v)) };
        } catch (err) {
          reject(err);
          return;
        }
        queue.push({ config, prelude, alone, resolve, reject });
        schedulePump();
      });
    },
  };
}
