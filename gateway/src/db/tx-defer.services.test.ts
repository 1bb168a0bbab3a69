import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPgDb, type Db, type Row } from './db.ts';
import { emitEvent } from '../bus/outbox.ts';
import { freshDatabase, requireEnv } from '../testing/fresh-database.ts';
import { migrate } from './migrate.ts';

/**
 * tx.defer on PostgreSQL (db.ts): a deferred statement runs before the transaction's next statement,
 * or in the same write as its COMMIT when it is the last; its failure fails the transaction; a
 * transaction given up before its commit never runs it. emitEvent writes its outbox row this way.
 */
const DATABASE_URL = requireEnv('DATABASE_URL');

let fresh: { url: string; drop(): Promise<void> };
let db: Db;

beforeAll(async () => {
  fresh = await freshDatabase(DATABASE_URL, { migrated: true });
  db = createPgDb(fresh.url, 4);
  if (!(await db.query(`SELECT to_regclass('outbox') AS t`)).rows[0]!.t) await migrate(db);
  await db.query('CREATE TABLE defer_t (n int PRIMARY KEY)');
  // A check that only the COMMIT runs: a deferred constraint trigger.
  await db.query(`CREATE TABLE defer_c (n int PRIMARY KEY, ok boolean NOT NULL)`);
  await db.query(`CREATE FUNCTION defer_c_check() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN IF NOT NEW.ok THEN RAISE EXCEPTION 'refused at commit'; END IF; RETURN NULL; END $$`);
  await db.query(`CREATE CONSTRAINT TRIGGER defer_c_trg AFTER INSERT ON defer_c DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION defer_c_check()`);
});
afterAll(async () => {
  await db?.close();
  await fresh?.drop();
});

const seen = async () => (await db.query<{ n: number }>('SELECT n FROM defer_t ORDER BY n')).rows.map((r) => r.n);
const INSERT = 'INSERT INTO defer_t (n) VALUES ($1) RETURNING n';

describe('tx.defer (PostgreSQL)', () => {
  it('runs a deferred last statement with the COMMIT, in one round trip with BEGIN when it is the only one', async () => {
    // Round trips = ReadyForQuery messages on a pool made after the spy is in place.
    const ready = vi.spyOn(pg.Client.prototype as unknown as { _handleReadyForQuery(m: unknown): void }, '_handleReadyForQuery');
    const counted = createPgDb(fresh.url, 1);
    try {
      await counted.query('SELECT 1');
      let got: Row[] | null = null;
      let hookSaw: Row[] | null = null;
      ready.mockClear();
      await counted.tx(async (tx) => {
        tx.defer!(INSERT, [1], (rows) => (got = rows));
        tx.afterCommit(() => (hookSaw = got));
        // Nothing has run yet.
        expect(got).toBeNull();
      });
      expect(ready.mock.calls.length).toBe(1);
      expect(got).toEqual([{ n: 1 }]);
      // done ran before the after-commit hooks.
      expect(hookSaw).toEqual([{ n: 1 }]);
      expect(await seen()).toEqual([1]);

      // After another statement: that statement's round trip, then the deferred one with the COMMIT.
      ready.mockClear();
      await counted.tx(async (tx) => {
        await tx.query(INSERT, [2]);
        tx.defer!(INSERT, [3], () => undefined);
      });
      expect(ready.mock.calls.length).toBe(2);
      expect(await seen()).toEqual([1, 2, 3]);
    } finally {
      ready.mockRestore();
      await counted.close();
    }
  });

  it('runs deferred statements before the next statement, in order, which then sees them', async () => {
    const order: number[] = [];
    const r = await db.tx(async (tx) => {
      tx.defer!(INSERT, [10], () => order.push(10));
      tx.defer!(INSERT, [11], () => order.push(11));
      const inside = await tx.query<{ c: number }>('SELECT count(*)::int AS c FROM defer_t WHERE n IN (10, 11)');
      tx.defer!(INSERT, [12], () => order.push(12));
      return inside.rows[0]!.c;
    });
    expect(r).toBe(2);
    expect(order).toEqual([10, 11, 12]);
    expect((await seen()).filter((n) => n >= 10)).toEqual([10, 11, 12]);
  });

  it('fails the transaction when a deferred statement fails, and keeps nothing of it', async () => {
    let hooked = false;
    await expect(db.tx(async (tx) => {
      await tx.query(INSERT, [20]);
      tx.afterCommit(() => (hooked = true));
      tx.defer!(INSERT, [20], () => undefined); // duplicate key, found only at the commit's write
    })).rejects.toThrow(/duplicate key/);
    expect(hooked).toBe(false);
    expect((await seen()).includes(20)).toBe(false);
    // The same when the failing deferred statement is the only one (BEGIN, statement, COMMIT in one write).
    await db.query('INSERT INTO defer_t (n) VALUES (21)');
    await expect(db.tx(async (tx) => {
      tx.defer!(INSERT, [21], () => undefined);
    })).rejects.toThrow(/duplicate key/);
    // The connection is fine afterwards: a pool of 4 runs many more transactions.
    for (let i = 0; i < 8; i++) await db.tx(async (tx) => tx.defer!(INSERT, [30 + i], () => undefined));
    expect((await seen()).filter((n) => n >= 30)).toEqual([30, 31, 32, 33, 34, 35, 36, 37]);
  });

  it('fails the call when the COMMIT itself is refused (a deferred constraint), with nothing kept', async () => {
    let hooked = false;
    await expect(db.tx(async (tx) => {
      tx.afterCommit(() => (hooked = true));
      tx.defer!('INSERT INTO defer_c (n, ok) VALUES ($1, $2)', [1, false], () => undefined);
    })).rejects.toThrow(/refused at commit/);
    expect(hooked).toBe(false);
    expect((await db.query('SELECT count(*)::int AS c FROM defer_c')).rows[0]).toEqual({ c: 0 });
    await db.tx(async (tx) => tx.defer!('INSERT INTO defer_c (n, ok) VALUES ($1, $2)', [2, true], () => undefined));
    expect((await db.query('SELECT n FROM defer_c')).rows).toEqual([{ n: 2 }]);
  });

  it('never runs a deferred statement of a transaction given up before its commit', async () => {
    let ran = false;
    await expect(db.tx(async (tx) => {
      tx.defer!(INSERT, [40], () => (ran = true));
      throw new Error('given up');
    })).rejects.toThrow('given up');
    expect(ran).toBe(false);
    expect((await seen()).includes(40)).toBe(false);
  });

  it('emitEvent: the outbox row goes with the COMMIT and the envelope has its seq once committed', async () => {
    const audience = 'user:990001';
    const payload = { memberId: 990001, currency: 'PHP', balance: 100, available: 100, delta: 100, reason: 'test', transferId: 'defer-1' };
    let seqInHook = 0;
    const env = await db.tx(async (tx) => {
      const e = await emitEvent(tx, 'DEMO', audience, 'balance.changed', payload);
      tx.afterCommit(() => (seqInHook = e.seq));
      return e;
    });
    const row = (await db.query<{ seq: number }>('SELECT seq FROM outbox WHERE id = $1', [env.id])).rows[0];
    expect(row?.seq).toBeGreaterThan(0);
    expect(env.seq).toBe(row!.seq);
    expect(seqInHook).toBe(row!.seq);
  });
});
