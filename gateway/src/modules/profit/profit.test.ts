import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { api, startTestPortal, type TestPortal } from '../../testing/test-portal.ts';
import { testMembers } from '../../testing/test-members.ts';
import { transfer } from '../wallet/ledger.ts';
import { vendorClient } from '../../testing/vendor-suite.ts';
import { profitRange } from './profit-routes.ts';

let t: TestPortal;
const VENDOR = 'PFV';
const secret = randomBytes(32).toString('hex');
const { signedPost, vendorToken: session } = vendorClient(() => t.url, VENDOR, secret);
let seq = 0;
const id = (p: string) => `${p}-${Date.now()}-${++seq}`;
const member = testMembers(() => t.url, { prefix: 'pf' });

beforeAll(async () => {
  t = await startTestPortal();
  await t.portal.db.query(`INSERT INTO vendor_accounts (merchant_code, vendor, secret, launch_url) VALUES ('DEMO', $1, $2, 'https://vendor.example/play')`, [VENDOR, secret]);
  await t.portal.db.query(`INSERT INTO vendors (merchant_code, vassalage, game_type, game_category, display_name) VALUES ('DEMO', $1, 'RNG', 'SLOT', 'PF Vendor')`, [VENDOR]);
  await t.portal.db.query(`INSERT INTO games (merchant_code, node_id, vassalage, game_code, game_type, game_name) VALUES ('DEMO', 'PFV-S', $1, 'S1', 'RNG', 'PF Slot'), ('DEMO', 'PFV-F', $1, 'F1', 'FISH', 'PF Fish')`, [VENDOR]);
});
afterAll(async () => {
  await t.stop();
});

async function vendorCall(path: string, body: unknown) {
  const res = await signedPost(path, body);
  expect(res.status, path).toBe(200);
}
type Profit = { rows: Array<{ gameType: string | null; betCount: number; validBets: number; payout: number; profit: number }>; totals: { betCount: number; validBets: number; payout: number; profit: number } };

describe('personal profit', () => {
  it('sums the member\'s own bets and wins per game type, rolled-back bets out, with totals equal to the hourly rollup', async () => {
    const m = await member(0);
    await t.portal.db.tx((tx) => transfer(tx, { merchant: 'DEMO', currency: 'PHP', key: id('seed'), kind: 'deposit', amount: 1_000_00, debit: { system: 'deposit' }, credit: { member: m.memberId } }));
    const slot = await session(m.token, 'PFV-S');
    const fish = await session(m.token, 'PFV-F');
    const p = String(m.memberId);
    const r1 = id('r');
    await vendorCall('bet', { transactionId: id('b'), playerId: p, roundId: r1, gameCode: 'S1', amount: 10_00, token: slot });
    await vendorCall('win', { transactionId: id('w'), playerId: p, roundId: r1, gameCode: 'S1', amount: 25_00, token: slot });
    const r2 = id('r');
    await vendorCall('bet', { transactionId: id('b'), playerId: p, roundId: r2, gameCode: 'S1', amount: 5_00, token: slot });
    const r3 = id('r');
    const rolled = id('b');
    await vendorCall('bet', { transactionId: rolled, playerId: p, roundId: r3, gameCode: 'F1', amount: 7_00, token: fish });
    await vendorCall('rollback', { transactionId: id('rb'), playerId: p, roundId: r3, refTransactionId: rolled });
    const r4 = id('r');
    await vendorCall('bet', { transactionId: id('b'), playerId: p, roundId: r4, gameCode: 'F1', amount: 3_00, token: fish });

    const today = await api<Profit>(t.url, '/wps/v2/profit?period=today', { token: m.token });
    expect(today.status, today.text).toBe(200);
    expect(today.json!.value!.rows).toEqual([
      { gameType: 'FISH', betCount: 1, validBets: 3_00, payout: 0, profit: -3_00 },
      { gameType: 'RNG', betCount: 2, validBets: 15_00, payout: 25_00, profit: 10_00 },
    ]);
    expect(today.json!.value!.totals).toEqual({ betCount: 3, validBets: 18_00, payout: 25_00, profit: 7_00 });
    const hours = await t.portal.db.query<{ b: number; v: string; pay: string }>('SELECT sum(bet_count)::int AS b, sum(valid_bets) AS v, sum(payout) AS pay FROM member_bet_hours WHERE member_id = $1', [m.memberId]);
    expect({ betCount: hours.rows[0]!.b, validBets: Number(hours.rows[0]!.v), payout: Number(hours.rows[0]!.pay) }).toEqual({ betCount: 3, validBets: 18_00, payout: 25_00 });
    for (const period of ['7d', '30d']) {
      expect((await api<Profit>(t.url, `/wps/v2/profit?period=${period}`, { token: m.token })).json!.value!.totals.profit).toBe(7_00);
    }
    // a custom range of days before today: nothing
    const old = await api<Profit>(t.url, '/wps/v2/profit?period=custom&from=2020-01-01&to=2020-01-31', { token: m.token });
    expect(old.json!.value!).toMatchObject({ rows: [], totals: { betCount: 0, validBets: 0, payout: 0, profit: 0 } });
    // someone else's result is not mine
    const other = await member(0);
    expect((await api<Profit>(t.url, '/wps/v2/profit?period=30d', { token: other.token })).json!.value!.rows).toEqual([]);
  });

  it('refuses bad periods with a 4xx', async () => {
    const m = await member(0);
    for (const q of ['period=year', 'period=custom', 'period=custom&from=2026-02-30&to=2026-03-01', 'period=custom&from=2026-03-02&to=2026-03-01', 'period=custom&from=2025-01-01&to=2026-01-01', 'from=x']) {
      const r = await api(t.url, `/wps/v2/profit?${q}`, { token: m.token });
      expect(r.status, q).toBe(400);
      expect(r.json, q).toMatchObject({ success: false, code: 'VALIDATION' });
    }
    expect((await api(t.url, '/wps/v2/profit')).status).toBe(401);
  });

  it('counts periods on the merchant calendar', () => {
    const now = Date.parse('2026-05-10T20:00:00Z'); // 04:00 on 11 May in UTC+8
    expect(profitRange({ period: 'today' }, 480, now)).toEqual({ from: new Date('2026-05-10T16:00:00Z'), to: new Date('2026-05-11T16:00:00Z') });
    expect(profitRange({ period: '7d' }, 480, now).from).toEqual(new Date('2026-05-04T16:00:00Z'));
    expect(profitRange({ period: 'custom', from: '2026-05-01', to: '2026-05-01' }, 480, now)).toEqual({ from: new Date('2026-04-30T16:00:00Z'), to: new Date('2026-05-01T16:00:00Z') });
  });
});
