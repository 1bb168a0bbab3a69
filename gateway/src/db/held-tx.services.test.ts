import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgDb, heldTx, type Db } from './db.ts';
import { freshDatabase, requireEnv } from '../testing/fresh-database.ts';

/**
 * HeldTx on real PostgreSQL (db.ts; the outbox relay's passes): each run's transaction stays open until
 * the next run, whose first write commits it, or until commit().
 */
const DATABASE_URL = requireEnv('DATABASE_URL');

let fresh: { url: string; drop(): Promise<void> };
let db: Db;

beforeAll(async () => {
  fresh = await freshDatabase(DATABASE_URL);
  db = createPgDb(fresh.url, 4);
  await db.query('CREATE TABLE held_t (n int PRIMARY KEY)');
});
afterAll(async () => {
  await db?.close();
  await fresh?.drop();
});

/** What another connection sees (committed rows only). */
const seen = async () => (await db.query<{ n: number }>('SELECT n FROM held_t ORDER BY n')).rows.map((r) => r.n);
const insert = (n: number) => 'INSERT INTO held_t (n) VALUES ($1) RETURNING n'.replace('$1', String(n));

describe('heldTx (PostgreSQL)', () => {
  it('leaves each run open until the next run commits it, or commit() does', async () => {
    const h = heldTx(db)!;
    await db.query('DELETE FROM held_t');
    const r1 = await h.run((tx) => tx.query<{ n: number }>('INSERT INTO held_t (n) VALUES ($1) RETURNING n', [1]));
    expect(r1.rows).toEqual([{ n: 1 }]);
    expect(await seen()).toEqual([]);
    // The next run's first statement carries the COMMIT of the first: 1 is committed, 2 is not yet.
    await h.run((tx) => tx.query('INSERT INTO held_t (n) VALUES ($1)', [2]));
    expect(await seen()).toEqual([1]);
    await h.commit();
    expect(await seen()).toEqual([1, 2]);
    // Nothing open: commit() again does nothing.
    await h.commit();
  });

  it('a failing run rolls back its own transaction only; the one before it was committed', async () => {
    const h = heldTx(db)!;
    await db.query('DELETE FROM held_t');
    await h.run((tx) => tx.query('INSERT INTO held_t (n) VALUES ($1)', [10]));
    await expect(h.run(async (tx) => {
      await tx.query('INSERT INTO held_t (n) VALUES ($1)', [11]);
      await tx.query('INSERT INTO held_t (n) VALUES ($1)', [10]); // duplicate key
    })).rejects.toThrow(/duplicate key/);
    expect(await seen()).toEqual([10]);
    // The connection is usable again, and the next run starts clean.
    await h.run((tx) => tx.query('INSERT INTO held_t (n) VALUES ($1)', [12]));
    await h.commit();
    expect(await seen()).toEqual([10, 12]);
  });

  it('a run that sends no statement keeps the open transaction open; a statement not yet parsed works too', async () => {
    const h = heldTx(db)!;
    await db.query('DELETE FROM held_t');
    await h.run((tx) => tx.query(insert(20)));
    await h.run(async () => 'nothing');
    expect(await seen()).toEqual([]);
    await h.run((tx) => tx.query(insert(21)));
    expect(await seen()).toEqual([20]);
    await h.commit();
    expect(await seen()).toEqual([20, 21]);
  });

  it('a connection lost while a run is held open loses only that uncommitted run', async () => {
    const h = heldTx(db)!;
    await db.query('DELETE FROM held_t');
    await h.run((tx) => tx.query('INSERT INTO held_t (n) VALUES ($1)', [30]));
    await h.run(async (tx) => {
      await tx.query('INSERT INTO held_t (n) VALUES ($1)', [31]);
      await tx.query('SELECT pg_terminate_backend(pg_backend_pid())').catch(() => undefined);
    }).catch(() => undefined);
    // 30 was committed with 31's first write; 31 died with its connection.
    expect(await seen()).toEqual([30]);
    await h.commit().catch(() => undefined);
    await h.run((tx) => tx.query('INSERT INTO held_t (n) VALUES ($1)', [32]));
    await h.commit();
    expect(await seen()).toEqual([30, 32]);
  });
});
