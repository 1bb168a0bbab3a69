import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgDb, type Db } from '../../db/db.ts';
import { migrate } from '../../db/migrate.ts';
import { seedDemo } from '../../db/seed.ts';
import { freshDatabase, requireEnv } from '../../testing/fresh-database.ts';
import type { Operator } from '../ops/operators.ts';
import { checkLedger } from '../wallet/ledger.ts';
import { createRedEnvelopes } from '../red-envelopes/red-envelopes-service.ts';
import { createPromotionDrops, type PromotionDrops } from './promotion-drops.ts';

/**
 * A promotion's red envelope drop on real PostgreSQL, run by two "nodes" (two connection pools) at the
 * same moment, several times each: one envelope, funded once. And a cancel racing the run: either the
 * drop is cancelled and nothing moved, or it dropped and the cancel is refused.
 */
let fresh: { url: string; drop(): Promise<void> };
let dbA: Db;
let dbB: Db;
let nodeA: PromotionDrops;
let nodeB: PromotionDrops;
let op: Operator;

beforeAll(async () => {
  fresh = await freshDatabase(requireEnv('DATABASE_URL'));
  dbA = createPgDb(fresh.url, 10);
  await migrate(dbA);
  await seedDemo(dbA, { catalogue: 'small' });
  dbB = createPgDb(fresh.url, 10);
  const o = (await dbA.query<{ id: number; username: string }>(
    `INSERT INTO operators (merchant_code, username, password_hash, roles, must_change_password) VALUES ('DEMO', 'dropload', 'unused', ARRAY['content'], false) RETURNING id, username`)).rows[0]!;
  op = { id: Number(o.id), merchantCode: 'DEMO', username: o.username, roles: ['content'], mustChangePassword: false, totpEnrolled: true };
  nodeA = createPromotionDrops({ db: dbA, jobs: null, envelopes: createRedEnvelopes({ db: dbA, jobs: null }) });
  nodeB = createPromotionDrops({ db: dbB, jobs: null, envelopes: createRedEnvelopes({ db: dbB, jobs: null }) });
});
afterAll(async () => {
  if (dbA) expect(await checkLedger(dbA)).toEqual([]);
  await dbB?.close();
  await dbA?.close();
  await fresh?.drop();
});

async function promotionWithParticipants(n: number, prefix: string) {
  const p = (await dbA.query<{ id: string }>(
    `INSERT INTO promotions (merchant_code, category, kind, title, rules, starts_at) VALUES ('DEMO', 'limited', 'signup', '{"EN":"p","TY":"p"}', '{"EN":"r","TY":"r"}', now()) RETURNING id::text`)).rows[0]!.id;
  await dbA.query(
    `WITH m AS (INSERT INTO members (merchant_code, account, account_lower, type) SELECT 'DEMO', $1 || g, $1 || g, 0 FROM generate_series(1, $2) g RETURNING id)
     INSERT INTO promotion_joins (promotion_id, member_id) SELECT $3, id FROM m`, [prefix, n, p]);
  return p;
}
/** The promotion cost account (system 'bonus', every shard) and the house: a promotion's drop is paid by the first. */
const house = async () => Number((await dbA.query<{ s: string }>(
  `SELECT COALESCE(sum(balance), 0)::bigint AS s FROM ledger_accounts WHERE merchant_code = 'DEMO' AND kind = 'house'`)).rows[0]!.s);
const cost = async () => Number((await dbA.query<{ s: string }>(
  `SELECT COALESCE(sum(balance), 0)::bigint AS s FROM ledger_accounts WHERE merchant_code = 'DEMO' AND kind = 'bonus' AND bonus_member_id IS NULL`)).rows[0]!.s);
const money = async () => ({ house: await house(), cost: await cost() });
const envelopesOf = async (dropId: string) => (await dbA.query<{ target_count: number }>('SELECT target_count FROM red_envelopes WHERE request_id = $1', [`promo-drop:${dropId}`])).rows;
const terms = { totalAmount: 10_000, count: 5, minShare: 100, expiresInMinutes: 30, runAt: new Date().toISOString(), message: {} };

describe('promotion drops on PostgreSQL', () => {
  it('two nodes run the same due drop 10 times at once: one envelope to the participants, funded once', async () => {
    const p = await promotionWithParticipants(7, 'pdl');
    const d = await nodeA.schedule(op, 'DEMO', Number(p), terms);
    const before = await money();
    const runs = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? nodeA : nodeB).run(Number(d.id))));
    expect(new Set(runs)).toEqual(new Set(['dropped']));
    expect(await envelopesOf(d.id)).toEqual([{ target_count: 7 }]);
    expect(await money()).toEqual({ house: before.house, cost: before.cost - 10_000 });
  });

  it('a cancel racing the run: cancelled with nothing moved, or dropped with the cancel refused (409)', async () => {
    for (let round = 0; round < 10; round++) {
      const p = await promotionWithParticipants(2, `pdc${round}-`);
      const d = await nodeA.schedule(op, 'DEMO', Number(p), terms);
      const before = await money();
      const [ran, cancelled] = await Promise.all([
        nodeB.run(Number(d.id)),
        nodeA.cancel(op, 'DEMO', Number(d.id)).then(() => 'ok', (err: { code?: string }) => err.code ?? String(err)),
      ]);
      if (ran === 'dropped') {
        expect(cancelled).toBe('CONFLICT');
        expect([(await envelopesOf(d.id)).length, await money()]).toEqual([1, { house: before.house, cost: before.cost - 10_000 }]);
      } else {
        expect([ran, cancelled]).toEqual(['cancelled', 'ok']);
        expect([(await envelopesOf(d.id)).length, await money()]).toEqual([0, before]);
      }
    }
  });
});
