import type { Db } from '../db/db.ts';

/**
 * `db` with two counters for tests: statements whose text contains `fragment`, and transactions
 * (db.tx calls). Everything else is `db`'s own.
 */
export function countingDb(db: Db, fragment: string): { db: Db; queries: () => number; txs: () => number } {
  let queries = 0;
  let txs = 0;
  const counted = Object.create(db, {
    query: {
      value: (sql: string, params?: readonly unknown[]) => {
        if (sql.includes(fragment)) queries++;
        return db.query(sql, params);
      },
    },
    tx: { value: (fn: Parameters<Db['tx']>[0]) => { txs++; return db.tx(fn); } },
  }) as Db;
  return { db: counted, queries: () => queries, txs: () => txs };
}
