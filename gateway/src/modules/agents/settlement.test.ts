import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { periodOf, type Period } from '@portal/contracts/domain/agent-periods';
import { type Db } from '../../db/db.ts';
import { migratedPgliteDb } from '../../testing/pglite-snapshot.ts';
import { migrate } from '../../db/migrate.ts';
import type { Merchant } from '../merchants/merchant-directory.ts';
import { balanceOf, checkLedger } from '../wallet/ledger.ts';
import { listRecords } from '../wallet/records.ts';
import { createAgentSettlement, type AgentSettlement } from './settlement.ts';

/**
 * Settlement against a real (PGlite) database: figures are written straight into the bet rollup
 * (member_bet_hours) for a past period, contracts straight into agent_contracts (active since before
 * the period), then the service settles the period.
 */
const M = { code: 'ST', currency: 'PHP', brand: { gmtOffsetMinutes: 0 }, agentTypes: [1], trialTypes: [] } as unknown as Merchant;
let db: Db;
let svc: AgentSettlement;
let seq = 0;

beforeAll(async () => {
  db = await migratedPgliteDb();
  await migrate(db);
  await db.query(`INSERT INTO merchants (code, name, currency) VALUES ('ST', 'Settle', 'PHP')`);
  svc = createAgentSettlement({ db, merchants: { all: async () => [M] } });
}, 60_000);
afterAll(async () => {
  await db?.close();
});

async function member(parentId: number | null, type = 1): Promise<number> {
  const account = `s${++seq}`;
  const r = await db.query<{ id: number }>(
    `INSERT INTO members (merchant_code, account, account_lower, type, parent_id) VALUES ('ST', $1, lower($1), $2, $3) RETURNING id`,
    [account, type, parentId],
  );
  return r.rows[0]!.id;
}
async function contract(kind: string, uplineId: number | null, downlineId: number, terms: Record<string, unknown>, since: Date) {
  const r = await db.query<{ id: number }>(
    `INSERT INTO agent_contracts (merchant_code, kind, upline_id, downline_id, terms, rate, active_members, bet_amount, status, offered_at, answered_at)
     VALUES ('ST', $1, $2, $3, $4, $5, $6, $7, 'active', $8, $8) RETURNING id`,
    [kind, uplineId, downlineId, JSON.stringify({ kind, activeMembers: 0, betAmount: 0, ...terms }), terms.rate, terms.activeMembers ?? 0, terms.betAmount ?? 0, since],
  );
  return r.rows[0]!.id;
}
async function bets(memberId: number, hour: Date, validBets: number, payout: number) {
  await db.query('INSERT INTO member_bet_hours (member_id, hour, bet_count, valid_bets, payout) VALUES ($1, $2, 1, $3, $4)', [memberId, hour, validBets, payout]);
}
const bal = async (id: number) => (await balanceOf(db, id, 'PHP')).balance;
const payouts = async (contractIds: number[]) =>
  (await db.query<{ contract_id: number; amount: number; status: string; payer_id: number | null; payee_id: number }>(
    'SELECT contract_id, amount, status, payer_id, payee_id FROM agent_payouts WHERE contract_id = ANY($1::bigint[]) ORDER BY contract_id', [contractIds])).rows;

/** A fresh past daily period per test (distinct days keep tests independent). */
let dayBack = 3;
function pastDay(): Period {
  dayBack += 2;
  return periodOf(Date.now() - dayBack * 86_400_000, 'daily', 0);
}
const wages = (rate: number) => ({ rate, validBetPeriod: 'daily' });

describe('agent settlement', () => {
  it('pays a 3-level chain top-down: the house the top agent, each upline its downline the downline\'s rate on its team', async () => {
    const p = pastDay();
    const since = new Date(p.start.getTime() - 86_400_000);
    const a = await member(null);
    const b = await member(a);
    const c = await member(b);
    const pc = await member(c, 0);
    const pa = await member(a, 0);
    const ca = await contract('dailyWages', null, a, wages(300), since);
    const cb = await contract('dailyWages', a, b, wages(200), since);
    const cc = await contract('dailyWages', b, c, wages(100), since);
    await bets(pc, new Date(p.start.getTime() + 3600_000), 1_000_000, 400_000);
    await bets(pa, new Date(p.start.getTime() + 7200_000), 500_000, 0);

    const r = await svc.settleOne(M, 'dailyWages', p);
    expect(r).toMatchObject({ inserted: 3, paid: 3, unfunded: 0 });
    expect(await payouts([ca, cb, cc])).toEqual([
      { contract_id: ca, amount: 45_000, status: 'paid', payer_id: null, payee_id: a },
      { contract_id: cb, amount: 20_000, status: 'paid', payer_id: a, payee_id: b },
      { contract_id: cc, amount: 10_000, status: 'paid', payer_id: b, payee_id: c },
    ]);
    expect([await bal(a), await bal(b), await bal(c)]).toEqual([25_000, 10_000, 10_000]);
    const st = (await db.query<{ statement: { lines: { memberId: number; took: number; account: string }[]; kept: number; steps: { code: string }[]; arithmetic: { amount: string } } }>(
      'SELECT statement FROM agent_payouts WHERE contract_id = $1', [ca])).rows[0]!.statement;
    expect(st.kept).toBe(25_000);
    expect(st.arithmetic.amount).toBe('floor(max(0, 1500000) × 300 / 10000) = 45000');
    expect(st.lines.find((l) => l.memberId === b)).toMatchObject({ took: 20_000 });
    expect(st.steps.map((x) => x.code)).toEqual(['team', 'baseValidBets', 'noConditions', 'amount', 'passedOn']);
    // Balance events for every payee, and the payout event for payee and payer.
    const ev = (await db.query<{ audience: string; type: string }>(`SELECT audience, type FROM outbox WHERE type IN ('balance.changed', 'contract.payout') AND audience = ANY($1)`, [[`user:${a}`, `user:${b}`, `user:${c}`]])).rows;
    expect(ev.filter((e) => e.type === 'contract.payout' && e.audience === `user:${b}`)).toHaveLength(2);
    expect(ev.filter((e) => e.type === 'balance.changed' && e.audience === `user:${c}`)).toHaveLength(1);
    // B's account record names both moves by the contract kind and the contract and period (they read
    // "Other" with a ledger number).
    const rec = await listRecords(db, b, 'PHP', { from: new Date(Date.now() - 60_000), to: new Date(Date.now() + 60_000) }, 1, 10);
    expect(rec.list.map((x) => ({ kind: x.kind, amount: x.amount, reference: x.reference })).sort((x, y) => x.amount - y.amount)).toEqual([
      { kind: 'daily_salary', amount: -10_000, reference: `C${cc} ${p.key}` },
      { kind: 'daily_salary', amount: 20_000, reference: `C${cb} ${p.key}` },
    ]);

    // A rerun (the job again, another node, the test clock) changes nothing.
    const again = await svc.settleOne(M, 'dailyWages', p);
    expect(again.inserted).toBe(0);
    expect([await bal(a), await bal(b), await bal(c)]).toEqual([25_000, 10_000, 10_000]);
    expect(await payouts([ca, cb, cc])).toHaveLength(3);
    expect(await checkLedger(db)).toEqual([]);
  });

  it('two concurrent runs of the same period settle it once', async () => {
    const p = pastDay();
    const since = new Date(p.start.getTime() - 86_400_000);
    const a = await member(null);
    const b = await member(a);
    const pl = await member(b, 0);
    const ca = await contract('dailyWages', null, a, wages(100), since);
    const cb = await contract('dailyWages', a, b, wages(50), since);
    await bets(pl, new Date(p.start.getTime() + 3600_000), 200_000, 0);
    const [x, y] = await Promise.all([svc.settleOne(M, 'dailyWages', p), svc.settleOne(M, 'dailyWages', p)]);
    expect(x.inserted + y.inserted).toBe(2);
    expect(await payouts([ca, cb])).toHaveLength(2);
    expect([await bal(a), await bal(b)]).toEqual([1_000, 1_000]);
  });

  it('settleDue (the jobs\' and the test clock\'s path) settles closed periods once and skips open ones', async () => {
    const p = pastDay();
    const a = await member(null);
    const pl = await member(a, 0);
    const ca = await contract('hourlySalary', null, a, { rate: 100, validBetPeriod: 'hourly' }, new Date(p.start.getTime() - 3600_000));
    await bets(pl, new Date(p.start.getTime() + 2 * 3600_000), 100_000, 0);
    const at = new Date(p.start.getTime() + 5 * 3600_000 + 30_000); // the 5th hour ended 30 s ago: within the grace, not settled yet
    const first = (await svc.settleDue(at, ['hourlySalary'])).settled;
    expect(first.filter((s) => s.merchantCode === 'ST').length).toBeGreaterThanOrEqual(4);
    const rows = (await db.query<{ period_key: string; amount: number }>('SELECT period_key, amount FROM agent_payouts WHERE contract_id = $1 ORDER BY period_start', [ca])).rows;
    expect(rows.map((r) => r.amount).filter((x) => x > 0)).toEqual([1_000]);
    expect(rows.at(-1)!.period_key).toBe(periodOf(p.start.getTime() + 3 * 3600_000 + 1, 'hourly', 0).key);
    expect(await bal(a)).toBe(1_000);
    const second = (await svc.settleDue(at, ['hourlySalary'])).settled;
    expect(second.filter((s) => s.inserted > 0 && s.merchantCode === 'ST' && rows.some((r) => r.period_key === s.periodKey))).toEqual([]);
    expect(await bal(a)).toBe(1_000);
  });

  it('a negative dividend base pays nothing; an agent that cannot fund its downline is recorded unfunded and never goes negative', async () => {
    const p = pastDay();
    const since = new Date(p.start.getTime() - 86_400_000);
    const div = (rate: number) => ({ rate, profitLossPeriod: 'daily' });
    // Players won: negative base.
    const x = await member(null);
    const px = await member(x, 0);
    const cx = await contract('dividend', null, x, div(3000), since);
    await bets(px, new Date(p.start.getTime() + 3600_000), 100_000, 250_000);
    // Opposite signs: B's team lost 1,000,000, a player directly under A won 900,000: A nets 100,000.
    const a = await member(null);
    const b = await member(a);
    const c = await member(b);
    const pc = await member(c, 0);
    const pa = await member(a, 0);
    const ca = await contract('dividend', null, a, div(3000), since);
    const cb = await contract('dividend', a, b, div(2000), since);
    const cc = await contract('dividend', b, c, div(1000), since);
    await bets(pc, new Date(p.start.getTime() + 3600_000), 1_000_000, 0);
    await bets(pa, new Date(p.start.getTime() + 3600_000), 100_000, 1_000_000);

    await svc.settleOne(M, 'dividend', p);
    expect(await payouts([cx])).toEqual([{ contract_id: cx, amount: 0, status: 'nothing', payer_id: null, payee_id: x }]);
    expect(await bal(x)).toBe(0);
    expect(await payouts([ca, cb, cc])).toEqual([
      { contract_id: ca, amount: 30_000, status: 'paid', payer_id: null, payee_id: a },
      { contract_id: cb, amount: 200_000, status: 'unfunded', payer_id: a, payee_id: b },
      { contract_id: cc, amount: 100_000, status: 'unfunded', payer_id: b, payee_id: c },
    ]);
    expect([await bal(a), await bal(b), await bal(c)]).toEqual([30_000, 0, 0]);
    expect(await checkLedger(db)).toEqual([]);
  });

  it('with carry-over on, a negative period is carried into the next and nets against it', async () => {
    await db.query(`INSERT INTO agent_settlement_settings (merchant_code, carry_over) VALUES ('ST', true) ON CONFLICT (merchant_code) DO UPDATE SET carry_over = true`);
    try {
      const p1 = pastDay();
      const p2 = periodOf(p1.end, 'daily', 0);
      const a = await member(null);
      const pl = await member(a, 0);
      const ca = await contract('dividend', null, a, { rate: 1000, profitLossPeriod: 'daily' }, new Date(p1.start.getTime() - 86_400_000));
      await bets(pl, new Date(p1.start.getTime() + 3600_000), 100_000, 400_000); // players won 300,000
      await bets(pl, new Date(p2.start.getTime() + 3600_000), 500_000, 0); // lost 500,000
      await svc.settleOne(M, 'dividend', p1);
      await svc.settleOne(M, 'dividend', p2);
      const rows = (await db.query<{ amount: number; carry_in: number; carry_out: number }>('SELECT amount, carry_in, carry_out FROM agent_payouts WHERE contract_id = $1 ORDER BY period_start', [ca])).rows;
      expect(rows).toEqual([{ amount: 0, carry_in: 0, carry_out: -300_000 }, { amount: 20_000, carry_in: -300_000, carry_out: 0 }]);
    } finally {
      await db.query(`UPDATE agent_settlement_settings SET carry_over = false WHERE merchant_code = 'ST'`);
    }
  });
});
