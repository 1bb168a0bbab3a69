import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TPvpState } from '@portal/contracts/api/house';
import { startTestPortal, type TestPortal } from '../../testing/test-portal.ts';
import { houseTesting } from './house-testing.ts';
import { checkLedger } from '../wallet/ledger.ts';
import { PVP_ANTE, dealRound, splitPot, verifyRound } from './lucky9.ts';
import { hashSeed } from './fair.ts';

/** Lucky 9 Duel: players against each other; antes, payouts and refunds only through the vendor API. */
let t: TestPortal;

beforeAll(async () => {
  t = await startTestPortal();
  // These tests step the table themselves: the portal's own table clock (and sweep) would take the
  // table's advisory lock or move the round between their steps (seen in CI: the test's tick found the
  // table held and the lone player's round still joining). The clock is tested in table-clock.test.
  await t.portal.house.stop();
});
afterAll(async () => {
  expect(await checkLedger(t.portal.db)).toEqual([]);
  await t.stop();
});

const tables = houseTesting(() => t, 'pv');
const house = tables.house;
const balanceOf = tables.balanceOf;
const seat = (deposit: number) => tables.seat(deposit, 'HOUSE-PVP1');
const pvp = () => t.portal.house.pvp;

/** A fresh joining round that stays open. */
async function openJoining() {
  await pvp().tick('DEMO');
  await t.portal.db.query(`UPDATE house_table_rounds SET closes_at = now() - interval '1 second' WHERE merchant_code = 'DEMO' AND table_code = 'PVP1' AND phase = 'betting'`);
  await pvp().tick('DEMO');
  await t.portal.db.query(`UPDATE house_table_rounds SET next_at = now() - interval '1 second' WHERE merchant_code = 'DEMO' AND table_code = 'PVP1' AND phase = 'result'`);
  await pvp().tick('DEMO');
  await t.portal.db.query(`UPDATE house_table_rounds SET closes_at = now() + interval '1 minute' WHERE merchant_code = 'DEMO' AND table_code = 'PVP1' AND phase = 'betting'`);
}
async function closeRound(roundNo: number) {
  await t.portal.db.query(`UPDATE house_table_rounds SET closes_at = now() - interval '1 second' WHERE merchant_code = 'DEMO' AND table_code = 'PVP1' AND round_no = $1`, [roundNo]);
}
async function showResult(roundNo: number) {
  await t.portal.db.query(`UPDATE house_table_rounds SET next_at = now() + interval '5 seconds' WHERE merchant_code = 'DEMO' AND table_code = 'PVP1' AND round_no = $1`, [roundNo]);
}

describe('house Lucky 9 Duel (PVP1)', () => {
  it('is in the catalogue under a HOUSE PVP vendor row and refuses free play', async () => {
    const g = (await t.portal.db.query<{ game_type: string; game_name: string }>(`SELECT game_type, game_name FROM games WHERE merchant_code = 'DEMO' AND node_id = 'HOUSE-PVP1'`)).rows[0];
    expect(g).toEqual({ game_type: 'PVP', game_name: 'Lucky 9 Duel' });
    const v = (await t.portal.db.query<{ display_name: string }>(`SELECT display_name FROM vendors WHERE merchant_code = 'DEMO' AND vassalage = 'HOUSE' AND game_type = 'PVP'`)).rows[0];
    expect(v?.display_name).toBe('Lucky Cards');
    expect((await house('/freeplay', { game: 'PVP1' })).json?.code).toBe('NOT_AVAILABLE');
  });

  it('two players: both join, the round deals, the best hand takes the pot less the rake, the seed verifies', async () => {
    const a = await seat(50_000);
    const b = await seat(50_000);
    await openJoining();
    const before = (await house<TPvpState>('/pvp/state', {}, a.s.session)).json!.value!;
    expect(before).toMatchObject({ table: 'PVP1', phase: 'joining', serverSeed: null, ante: PVP_ANTE, joined: false, seats: [], balance: 50_000 });
    expect(before.seedHash).toMatch(/^[0-9a-f]{64}$/);
    const ja = (await house<TPvpState>('/pvp/join', {}, a.s.session)).json!.value!;
    expect(ja).toMatchObject({ joined: true, balance: 50_000 - PVP_ANTE, pot: PVP_ANTE });
    // Joining twice is one seat, one ante.
    expect((await house<TPvpState>('/pvp/join', {}, a.s.session)).json!.value!.seats).toHaveLength(1);
    const jb = (await house<TPvpState>('/pvp/join', {}, b.s.session)).json!.value!;
    expect(jb.seats.map((x) => x.me)).toEqual([false, true]);
    expect(jb.seats[0]!.nickname).toContain('*');
    expect(jb.pot).toBe(2 * PVP_ANTE);

    await closeRound(before.roundNo);
    expect(await pvp().tick('DEMO')).toBe(before.roundNo);
    // First each sees only their own cards.
    const peek = (await house<TPvpState>('/pvp/state', {}, a.s.session)).json!.value!;
    expect(peek.phase).toBe('dealt');
    expect(peek.serverSeed).toBeNull();
    expect(peek.seats.find((x) => x.me)!.cards).toHaveLength(2);
    expect(peek.seats.find((x) => !x.me)!.cards).toBeNull();
    await showResult(before.roundNo);
    const done = (await house<TPvpState>('/pvp/state', {}, a.s.session)).json!.value!;
    expect(done.phase).toBe('result');
    expect(hashSeed(done.serverSeed!)).toBe(before.seedHash);
    const seats = done.seats.map((x) => x.seat);
    const result = dealRound(done.serverSeed!, done.roundId, seats);
    expect(verifyRound({ serverSeed: done.serverSeed!, seedHash: before.seedHash, roundId: done.roundId, seats, result })).toBe(true);
    expect(done.seats.map((x) => x.cards)).toEqual(result.hands.map((h) => h.cards));
    expect(done.winners).toEqual(result.winners);
    const split = splitPot(PVP_ANTE, 2, result.winners.length);
    expect(done).toMatchObject({ pot: 2 * PVP_ANTE, rake: split.rake, houseTake: split.houseTake, cancelled: false });
    const [sa, sb] = seats;
    const expectA = 50_000 - PVP_ANTE + (result.winners.includes(sa!) ? split.share : 0);
    const expectB = 50_000 - PVP_ANTE + (result.winners.includes(sb!) ? split.share : 0);
    if (result.winners.length === 1) {
      // The winner: start - ante + pot - rake; the loser: start - ante.
      const [win, lose] = result.winners[0] === sa ? [expectA, expectB] : [expectB, expectA];
      expect(win).toBe(50_000 - PVP_ANTE + 2 * PVP_ANTE - split.rake);
      expect(lose).toBe(50_000 - PVP_ANTE);
    }
    expect(await balanceOf(a.m.token)).toBe(expectA);
    expect(await balanceOf(b.m.token)).toBe(expectB);
    expect(done.seats.map((x) => x.win)).toEqual(result.hands.map((h) => h.win));
    // Every ante has its win (0 for a loser) at the wallet: the round is closed for both.
    const tx = (await t.portal.db.query<{ kind: string; n: number }>(
      `SELECT kind, count(*)::int AS n FROM vendor_transactions WHERE vendor = 'HOUSE' AND round_id = $1 GROUP BY kind ORDER BY kind`, [done.roundId])).rows;
    expect(tx).toEqual([{ kind: 'bet', n: 2 }, { kind: 'win', n: 2 }]);
    // Seats are closed while the result shows.
    expect((await house('/pvp/join', {}, a.s.session)).json?.code).toBe('INVALID_STATE');
    // Settling again moves no money.
    await pvp().settleRound('DEMO', before.roundNo);
    expect(await balanceOf(a.m.token)).toBe(expectA);
    expect(await checkLedger(t.portal.db)).toEqual([]);
  });

  it('a lone player\'s round is cancelled and the ante rolled back', async () => {
    const a = await seat(5_000);
    await openJoining();
    const j = (await house<TPvpState>('/pvp/join', {}, a.s.session)).json!.value!;
    expect(await balanceOf(a.m.token)).toBe(5_000 - PVP_ANTE);
    await closeRound(j.roundNo);
    await pvp().tick('DEMO');
    const done = (await house<TPvpState>('/pvp/state', {}, a.s.session)).json!.value!;
    expect(done).toMatchObject({ phase: 'result', cancelled: true, winners: [] });
    expect(done.seats[0]!.status).toBe('rolled_back');
    expect(await balanceOf(a.m.token)).toBe(5_000);
    const tx = (await t.portal.db.query<{ kind: string }>(`SELECT kind FROM vendor_transactions WHERE vendor = 'HOUSE' AND round_id = $1 ORDER BY kind`, [done.roundId])).rows;
    expect(tx.map((x) => x.kind)).toEqual(['bet', 'rollback']);
  });

  it('refuses an ante beyond the balance and lets the player try again', async () => {
    const a = await seat(500);
    await openJoining();
    expect((await house('/pvp/join', {}, a.s.session)).json?.code).toBe('INSUFFICIENT_FUNDS');
    const st = (await house<TPvpState>('/pvp/state', {}, a.s.session)).json!.value!;
    expect(st).toMatchObject({ joined: false, seats: [] });
  });

  it('several nodes ticking at once deal a round once', async () => {
    const a = await seat(5_000);
    const b = await seat(5_000);
    await openJoining();
    const ja = await house<TPvpState>('/pvp/join', {}, a.s.session);
    expect(ja.status, ja.text).toBe(200);
    const j = ja.json!.value!;
    const jb = await house('/pvp/join', {}, b.s.session);
    expect(jb.status, jb.text).toBe(200);
    await closeRound(j.roundNo);
    await Promise.all(Array.from({ length: 5 }, () => pvp().tick('DEMO')));
    const later = (await t.portal.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM house_table_rounds WHERE merchant_code = 'DEMO' AND table_code = 'PVP1' AND round_no > $1`, [j.roundNo])).rows[0]!;
    expect(later.n).toBe(0);
    const wins = (await t.portal.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM vendor_transactions WHERE vendor = 'HOUSE' AND round_id = $1 AND kind = 'win'`, [j.roundId])).rows[0]!;
    expect(wins.n).toBe(2);
    expect((await balanceOf(a.m.token)) + (await balanceOf(b.m.token))).toBe(10_000 - splitPot(PVP_ANTE, 2, 1).houseTake);
  });
});
