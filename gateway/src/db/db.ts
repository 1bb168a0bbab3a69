import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { currentRequestId, setRequestIdSql, withRequestId } from '../obs/request-id.ts';
import { createGroupCommit, type GroupCommitStats, type StatementResult } from './group-commit.ts';
import { PgQuery, type PgConnection } from './pg-query.ts';

export type Row = Record<string, unknown>;
export type QueryResult<T> = { rows: T[]; rowCount: number };

/** Anything that runs SQL: the pool itself or an open transaction. */
export type Queryable = {
  query<T = Row>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>>;
};

/** A transaction handle: runs SQL and collects work to do only after COMMIT. */
export type Tx = Queryable & {
  afterCommit(fn: () => void): void;
  /**
   * Where offered (db.tx on PostgreSQL): run `sql` later in this transaction, before its next
   * statement or, if none follows, in the same write as its COMMIT (one round trip where a statement
   * and then the COMMIT took two). `done` gets the rows once it ran, before any afterCommit hook; a
   * failure fails the transaction, as it would have failed the statement. For writes whose result the
   * use case does not need before it ends: the outbox row of an event (emitEvent), usually its last
   * statement. Without it (PGlite, db.single), run the statement and await it.
   */
  defer?(sql: string, params: readonly unknown[], done: (rows: Row[]) => void): void;
};

export type Db = Queryable & {
  readonly kind: 'pg' | 'pglite';
  tx<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * A transaction of exactly ONE statement, committed on its own (the extended protocol's implicit
   * transaction): one round trip, where db.tx's BEGIN + statement and COMMIT take two. For a use case
   * whose whole write is one statement: an event alone, or one of the SQL functions that do a use
   * case's work in one statement (as the vendor money call and the red envelope grab do). The handle
   * is a Tx like db.tx's (afterCommit hooks run after the commit, txOwner knows it, the current
   * request id is recorded with the outbox rows); a second statement on it throws, before running.
   * On PostgreSQL, when more of these wait than a quarter of the pool runs, the waiting ones are
   * committed together, one round trip and one commit for all (group commit, see group-commit.ts):
   * each caller still gets its own result only once committed, and a failure stays its own.
   */
  single<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** Called after every commit that registered an afterCommit hook; used to wake the outbox relay. */
  close(): Promise<void>;
};

const INT8 = 20;
const NUMERIC = 1700;

/** int8 values in this schema (ids, seq, minor units) stay far below 2^53; refuse silently lossy ones. */
function parseInt8(v: string): number {
  const n = Number(v);
  if (!Number.isSafeInteger(n)) throw new RangeError(`int8 out of safe range: ${v}`);
  return n;
}

/** SQL text -> statement name, for the statements marked with `prepared`. */
const preparedNames = new Map<string, string>();

/**
 * Mark a hot statement (the outbox writes, the relay's claim: thousands a second) as prepared: on
 * PostgreSQL each pooled connection parses and plans it once, then only binds and executes it, which
 * takes about a third of the server's CPU off a one-event transaction. Returns the text unchanged;
 * PGlite runs it as before. Needs session-level connections (no transaction-mode pooler in between
 * that forgets prepared statements).
 */
export function prepared(sql: string): string {
  if (!preparedNames.has(sql)) preparedNames.set(sql, `portal_${preparedNames.size + 1}`);
  return sql;
}

/** node-postgres query config: named when the text was marked with `prepared`. */
function pgQuery(sql: string, params?: readonly unknown[]): pg.QueryConfig {
  const name = preparedNames.get(sql);
  return name ? { name, text: sql, values: params as unknown[] } : { text: sql, values: params as unknown[] };
}

function runHooks(hooks: Array<() => void>) {
  for (const h of hooks) {
    try {
      h();
    } catch {
      // an after-commit hook must never undo or fail a committed transaction
    }
  }
}

/** Which Db began a transaction: lets after-commit listeners tell this node's writes from another's (see outbox onLocalCommit). */
const owners = new WeakMap<Tx, Db>();
export function txOwner(tx: Tx): Db | undefined {
  return owners.get(tx);
}

/**
 * Another handle on the same database, as a second gateway node has its own: the same connection,
 * but the transactions it begins are its own (txOwner). For tests that run two nodes on one PGlite.
 * Closing it leaves the database open.
 */
export function aliasDb(db: Db): Db {
  const alias: Db = {
    kind: db.kind,
    query: (sql, params) => db.query(sql, params),
    tx: (fn) => db.tx((tx) => {
      owners.set(tx, alias);
      return fn(tx);
    }),
    single: (fn) => db.single((tx) => {
      owners.set(tx, alias);
      return fn(tx);
    }),
    close: async () => undefined,
  };
  return alias;
}

/**
 * A statement with prelude statements in front, in ONE write and one round trip. For a transaction's
 * first statement the prelude is BEGIN (and the request id's set_config): the
 * extended protocol's Parse/Bind/Execute of BEGIN (and of the request id's set_config), then the
 * statement's own Parse/Bind/Describe/Execute, then one Sync. Before the Sync these run as one
 * implicit block that BEGIN turns into the transaction (PostgreSQL's protocol docs, "Pipelining"):
 * the statement runs inside it, and an error aborts the transaction as it would after a separate
 * BEGIN (the caller then rolls back). A one-event transaction makes two round trips instead of three,
 * and the relay's and every use case's transactions one fewer each: on a shared machine the socket
 * writes of those round trips were most of a committed event's gateway CPU (issue 12, lean fan-out).
 * The prelude statements' own replies (CommandComplete, set_config's row) are not the caller's.
 * For db.single the prelude is the request id's set_config alone: without BEGIN the two run as one
 * implicit transaction, committed at the Sync.
 */
class PreludeThen extends PgQuery<pg.QueryResult> {
  private preludeLeft: number;
  private mainDone = false;
  constructor(config: pg.QueryConfig, private readonly prelude: readonly string[], callback: (err: Error | null, res: pg.QueryResult) => void, private readonly postlude: readonly string[] = []) {
    super(config, undefined, callback);
    this.preludeLeft = prelude.length;
  }
  override requiresPreparation() {
    return true;
  }
  override prepare(connection: PgConnection) {
    for (const text of this.prelude) unnamed(connection, text);
    super.prepare(connection);
  }
  /** After the statement's Execute: the postlude (a COMMIT), then the one Sync. */
  override _getRows(connection: PgConnection) {
    connection.execute({ portal: '', rows: 0 });
    for (const text of this.postlude) unnamed(connection, text);
    connection.sync();
  }
  override handleDataRow(msg: unknown) {
    if (this.preludeLeft > 0 || this.mainDone) return;
    super.handleDataRow(msg);
  }
  override handleCommandComplete(msg: unknown, connection: PgConnection) {
    if (this.preludeLeft > 0) {
      this.preludeLeft--;
      return;
    }
    // The postlude's replies are not the caller's; an error in it (a COMMIT refused) still fails the call.
    if (this.mainDone) return;
    this.mainDone = true;
    super.handleCommandComplete(msg, connection);
  }
}

/** A parameterless statement's Parse/Bind/Execute, no Sync (a prelude's or postlude's). */
function unnamed(connection: PgConnection, text: string) {
  connection.parse({ text, name: '', types: [] });
  connection.bind({ portal: '', statement: '', values: [] });
  connection.execute({ portal: '', rows: 0 });
}

/**
 * The first statement of a transaction on `client`, with its prelude (BEGIN, and what goes with it: the
 * request id's set_config, or the COMMIT of a held transaction before). Fused (PreludeThen) when the
 * statement has parameters (so it is a single statement, which the extended protocol requires) and,
 * if it is a named prepared statement, the connection has already parsed it (a ParseComplete of the
 * prelude must not be taken for the statement's own). Otherwise the prelude, then the statement, as before.
 */
async function firstStatement(client: pg.PoolClient, config: pg.QueryConfig, prelude: readonly string[]): Promise<pg.QueryResult> {
  if (canFuse(client, config)) return withPrelude(client, config, prelude);
  await client.query(prelude.join('; '));
  return client.query(config);
}

/**
 * A transaction's statements on `client`: the first goes with `prelude` (firstStatement), later ones
 * wait for it, so the prelude is always the first thing the connection runs and call order is kept.
 * `first()` is null while no statement was sent (the transaction never began), else settled once the
 * first statement has answered.
 */
function txStatements(client: pg.PoolClient, prelude: readonly string[]) {
  let first: Promise<unknown> | null = null;
  return {
    async query<R>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>> {
      const config = pgQuery(sql, params);
      if (!first) {
        const p = firstStatement(client, config, prelude);
        first = p.catch(() => undefined);
        return rowsOf(await p) as QueryResult<R>;
      }
      await first;
      return rowsOf(await client.query(config)) as QueryResult<R>;
    },
    first: () => first,
  };
}

/** Whether `config` can go after prelude statements before one Sync (see firstStatement). */
function canFuse(client: pg.PoolClient, config: pg.QueryConfig): boolean {
  const parsed = (client as unknown as { connection: PgConnection }).connection.parsedStatements;
  return !!config.values?.length && (!config.name || parsed[config.name] !== undefined);
}

function withPrelude(client: pg.PoolClient, config: pg.QueryConfig, prelude: readonly string[]): Promise<pg.QueryResult> {
  return new Promise<pg.QueryResult>((resolve, reject) => {
    client.query(new PreludeThen(config, prelude, (err, res) => (err ? reject(err) : resolve(res))));
  });
}

type Deferred = { sql: string; params: readonly unknown[]; done: (rows: Row[]) => void };

async function runDeferred(query: (sql: string, params?: readonly unknown[]) => Promise<QueryResult<Row>>, batch: readonly Deferred[]) {
  for (const d of batch) d.done((await query(d.sql, d.params)).rows);
}

/**
 * A transaction's last statement and its COMMIT (after `prelude`, BEGIN when it is also the first) in
 * one write and one round trip (PreludeThen with a postlude). If the statement fails the COMMIT is
 * skipped (the server ignores the rest until the Sync) and the transaction is left to roll back; a
 * COMMIT that fails fails the call. Not fused, as firstStatement: the prelude, the statement, then COMMIT.
 */
async function thenCommit(client: pg.PoolClient, config: pg.QueryConfig, prelude: readonly string[]): Promise<pg.QueryResult> {
  if (config.values?.length && (!prelude.length || canFuse(client, config))) {
    return new Promise<pg.QueryResult>((resolve, reject) => {
      client.query(new PreludeThen(config, prelude, (err, res) => (err ? reject(err) : resolve(res)), ['COMMIT']));
    });
  }
  if (prelude.length) await client.query(prelude.join('; '));
  const r = await client.query(config);
  await client.query('COMMIT');
  return r;
}

const rowsOf = (r: StatementResult): QueryResult<never> => ({ rows: r.rows as never[], rowCount: r.rowCount ?? 0 });

/** At most this many one-statement transactions committed together (see group-commit.ts). */
const GROUP_COMMIT_MAX = 200;

/**
 * A consumer's transactions on one kept connection, each left open after its work until the next one
 * begins or `commit()` is called: the next transaction's first write then carries the previous one's
 * COMMIT together with its own BEGIN and first statement, one round trip where there were two (the
 * outbox relay's passes, issue 12: per-event gateway CPU at paced load). Only for work whose
 * transaction may commit a little later with nothing lost: the relay's pass deletes rows it has already
 * published, so a crash before the COMMIT publishes them again (at least once, as before).
 */
export type HeldTx = {
  /**
   * `fn` in a new transaction (the previous one committed first, in the same write); left open after
   * `fn` returns. If `fn` fails its transaction is rolled back (the previous one stays committed).
   */
  run<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Commit the transaction left open, if any, and give the connection back to the pool. */
  commit(): Promise<void>;
};

const heldTxs = new WeakMap<Db, () => HeldTx>();
/** Held transactions on this database (see HeldTx): PostgreSQL only; null on PGlite, whose one connection they would block. */
export function heldTx(db: Db): HeldTx | null {
  return heldTxs.get(db)?.() ?? null;
}

const groupStats = new WeakMap<Db, GroupCommitStats>();
/** How db.single's statements went on a PostgreSQL pool: alone or committed together (tests, bench); null on PGlite. */
export function groupCommitStats(db: Db): GroupCommitStats | null {
  return groupStats.get(db) ?? null;
}

/**
 * db.single on either backend: `fn` gets a handle that runs ONE statement through `run` (which commits
 * it) and refuses a second before running it; its afterCommit hooks run once the statement committed,
 * even if fn fails after it (what committed is announced).
 */
async function runSingle<T>(owner: Db, fn: (tx: Tx) => Promise<T>, run: (sql: string, params?: readonly unknown[]) => Promise<QueryResult<never>>): Promise<T> {
  const hooks: Array<() => void> = [];
  let used = false;
  let committed = false;
  const tx: Tx = {
    async query<R>(sql: string, params?: readonly unknown[]) {
      if (used) throw new Error('db.single: a second statement (use db.tx for a transaction of several)');
      used = true;
      const r = await run(sql, params);
      committed = true;
      return r as QueryResult<R>;
    },
    afterCommit: (h) => hooks.push(h),
  };
  owners.set(tx, owner);
  try {
    return await fn(tx);
  } finally {
    if (committed) runHooks(hooks);
  }
}

/** HeldTx on one connection of `pool`, taken at the first run and given back by commit(). */
function createHeldTx(pool: pg.Pool): HeldTx {
  let client: pg.PoolClient | null = null;
  let open = false;
  // run and commit one after the other, in call order.
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(f: () => Promise<T>): Promise<T> => {
    const p = chain.then(f);
    chain = p.catch(() => undefined);
    return p;
  };
  // The connection is kept between runs, outside any query: an error it raises then (the server gone)
  // must not go unheard (an 'error' event without a listener ends the process). The next call finds
  // it broken and drops it.
  let broken = false;
  const onError = () => {
    broken = true;
  };
  const acquire = async () => {
    if (client && broken) drop(client);
    if (!client) {
      client = await pool.connect();
      broken = false;
      client.on('error', onError);
    }
    return client;
  };
  const drop = (c: pg.PoolClient) => {
    c.removeListener('error', onError);
    c.release(true);
    client = null;
    open = false;
  };
  return {
    run: <T>(fn: (tx: Queryable) => Promise<T>) => serial(async () => {
      const c = await acquire();
      const wasOpen = open;
      const statements = txStatements(c, wasOpen ? ['COMMIT', 'BEGIN'] : ['BEGIN']);
      try {
        const r = await fn({ query: statements.query });
        // A run that sent no statement began nothing: the previous transaction, if open, stays open.
        open = statements.first() ? true : wasOpen;
        return r;
      } catch (err) {
        try {
          const first = statements.first();
          if (first) {
            await first;
            // The previous transaction's COMMIT went before the failure: only this one rolls back.
            await c.query('ROLLBACK');
            open = false;
          }
        } catch {
          drop(c);
        }
        throw err;
      }
    }),
    commit: () => serial(async () => {
      const c = client;
      if (!c) return;
      try {
        if (open) await c.query('COMMIT');
        open = false;
        client = null;
        c.removeListener('error', onError);
        c.release(broken);
      } catch (err) {
        drop(c);
        throw err;
      }
    }),
  };
}

/**
 * A pool on PostgreSQL. `owner`: for a second, small pool of the same node (the relay's, the bet
 * stream's) whose transactions are that node's own writes (txOwner, so onLocalCommit listeners of
 * `owner` hear their events).
 */
export function createPgDb(url: string, max = 20, owner?: Db): Db {
  const types = {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      if (oid === INT8) return parseInt8;
      return pg.types.getTypeParser(oid, format);
    },
  };
  const pool = new pg.Pool({ connectionString: url, max, types: types as pg.CustomTypesConfig });
  pool.on('error', () => {
    // idle client errors (server restart) are surfaced on the next query instead
  });
  const group = createGroupCommit({ pool, inFlight: Math.max(2, Math.floor(max / 4)), max: GROUP_COMMIT_MAX });
  const self: Db = {
    kind: 'pg',
    async query<T>(sql: string, params?: readonly unknown[]) {
      const r = await pool.query(pgQuery(sql, params));
      return { rows: r.rows as T[], rowCount: r.rowCount ?? 0 };
    },
    async tx<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      const hooks: Array<() => void> = [];
      // The request id (if any) is set with BEGIN, in the same round trip: outbox rows record it.
      const rid = setRequestIdSql(currentRequestId());
      const prelude = rid ? ['BEGIN', rid] : ['BEGIN'];
      // BEGIN goes with the transaction's first statement (see PreludeThen): one round trip, one write
      // where there were two.
      const statements = txStatements(client, prelude);
      // Statements deferred (tx.defer) until the next statement or the COMMIT, in call order.
      let deferred: Deferred[] = [];
      let flushed: Promise<void> = Promise.resolve();
      const flush = () => {
        if (deferred.length) {
          const batch = deferred;
          deferred = [];
          flushed = flushed.then(() => runDeferred(statements.query, batch));
        }
        return flushed;
      };
      // Set when the transaction began with its COMMIT in the same write (nothing ran before): a failure rolls it back.
      let beganAtCommit = false;
      const tx: Tx = {
        async query<R>(sql: string, params?: readonly unknown[]) {
          await flush();
          return statements.query<R>(sql, params);
        },
        afterCommit: (h) => hooks.push(h),
        defer: (sql, params, done) => {
          deferred.push({ sql, params, done });
        },
      };
      owners.set(tx, owner ?? self);
      let broken = false;
      try {
        const result = await fn(tx);
        const last = deferred.pop();
        await flush();
        const first = statements.first();
        if (last) {
          // The last deferred statement and the COMMIT in one write (with BEGIN too when it is the only statement).
          const config = pgQuery(last.sql, last.params);
          if (first) await first;
          else beganAtCommit = true;
          const r = await thenCommit(client, config, first ? [] : prelude);
          last.done(r.rows as Row[]);
        } else if (first) {
          // A transaction that ran no statement never began: nothing to commit.
          await first;
          await client.query('COMMIT');
        }
        runHooks(hooks);
        return result;
      } catch (err) {
        if (statements.first() || beganAtCommit) {
          try {
            await statements.first();
            await client.query('ROLLBACK');
          } catch {
            broken = true;
          }
        }
        throw err;
      } finally {
        client.release(broken);
      }
    },
    single<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
      // The request id is taken here: the statement may run later, from another caller's context (group commit).
      const id = currentRequestId();
      const rid = setRequestIdSql(id);
      return runSingle(owner ?? self, fn, async (sql, params) => {
        const config = pgQuery(sql, params);
        // The statement as its own transaction: when there is room, or after its batch failed.
        const alone = async (): Promise<StatementResult> => {
          // Autocommit: the statement is its own transaction.
          if (!rid) return pool.query(config);
          const client = await pool.connect();
          let fused = false;
          let r: pg.QueryResult | undefined;
          try {
            if ((fused = canFuse(client, config))) {
              // The request id's set_config, then the statement, before ONE Sync: one implicit
              // transaction (no BEGIN), so the transaction-local setting holds for the statement.
              r = await withPrelude(client, config, [rid]);
            }
          } finally {
            client.release();
          }
          // Not fusable (a named statement this connection has not parsed yet): a transaction of one statement.
          return fused ? r! : withRequestId(id!, () => self.tx((t) => t.query<never>(sql, params)));
        };
        return rowsOf(await group.run(config, rid, alone));
      });
    },
    close: () => pool.end(),
  };
  groupStats.set(self, group.stats);
  heldTxs.set(self, () => createHeldTx(pool));
  return self;
}

/**
 * PGlite on a data directory, or in memory when `dataDir` is null. `loadDataDir` (in memory only) starts
 * from a dump of another instance (PGlite's dumpDataDir) instead of running initdb: the tests' portals
 * start from one migrated dump (gateway/src/testing/pglite-snapshot.ts).
 */
/** The PGlite instance under a Db made by createPgliteDb (the test harness dumps it). */
const pglites = new WeakMap<Db, PGlite>();
export function pgliteOf(db: Db): PGlite | undefined {
  return pglites.get(db);
}

export async function createPgliteDb(dataDir: string | null, opts: { loadDataDir?: Blob | File } = {}): Promise<Db> {
  const parsers = { [INT8]: parseInt8, [NUMERIC]: (v: string) => Number(v) };
  const db = dataDir
    ? await PGlite.create(dataDir, { parsers })
    : await PGlite.create({ parsers, ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}) });
  const self: Db = {
    kind: 'pglite',
    async query<T>(sql: string, params?: readonly unknown[]) {
      const r = await db.query<T>(sql, params as unknown[]);
      return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
    },
    async tx<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
      const hooks: Array<() => void> = [];
      const rid = setRequestIdSql(currentRequestId());
      const result = await db.transaction(async (t) => {
        if (rid) await t.query(rid);
        const tx: Tx = {
          async query<R>(sql: string, params?: readonly unknown[]) {
            const r = await t.query<R>(sql, params as unknown[]);
            return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
          },
          afterCommit: (h) => hooks.push(h),
        };
        owners.set(tx, self);
        return fn(tx);
      });
      runHooks(hooks);
      return result;
    },
    // In process there is no round trip to save: the statement in a transaction of its own.
    single: <T>(fn: (tx: Tx) => Promise<T>) => runSingle(self, fn, (sql, params) => self.tx((t) => t.query<never>(sql, params))),
    close: () => db.close(),
  };
  pglites.set(self, db);
  return self;
}
