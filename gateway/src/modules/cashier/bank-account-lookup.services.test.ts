import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgDb, type Db } from '../../db/db.ts';
import { freshDatabase, requireEnv } from '../../testing/fresh-database.ts';
import { BANK_ACCOUNT_BOUND_SQL } from './withdrawals.ts';

/**
 * Binding a bank account asks whether any player of the merchant holds it (withdrawals.ts). Its plan on
 * real PostgreSQL: the index of migration 083, not a scan of every live account of the merchant.
 */
const DATABASE_URL = requireEnv('DATABASE_URL');

let fresh: { url: string; drop(): Promise<void> };
let db: Db;

beforeAll(async () => {
  fresh = await freshDatabase(DATABASE_URL, { migrated: true });
  db = createPgDb(fresh.url, 2);
});
afterAll(async () => {
  await db?.close();
  await fresh?.drop();
});

describe('bank account lookup (PostgreSQL)', () => {
  it('finds who holds an account through member_bank_accounts_bound', async () => {
    const plan = await db.tx(async (tx) => {
      // Planner costs on an empty table would pick a scan whatever the indexes: ask what it can use.
      await tx.query('SET LOCAL enable_seqscan = off');
      const r = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${BANK_ACCOUNT_BOUND_SQL}`.replace(/\$(\d)/g, (_, n: string) => ['', "'LPD'", "' bdo '", "'0123456789'", '1'][Number(n)]!));
      return r.rows.map((x) => x['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('member_bank_accounts_bound');
  });
});
