import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAgentContract } from '@portal/contracts/api/agent-contracts';
import type { TDispute, TIncomeValue, TPayout, TPayoutStatement, TSimulateValue } from '@portal/contracts/api/agent-payouts';
import { connectSocket, startTestPortal, waitFor, type TestPortal, type TestSocket } from '../../testing/test-portal.ts';
import { apiOn, testMembers, type TestMember } from '../../testing/test-members.ts';
import { balanceOf, checkLedger, transfer } from '../wallet/ledger.ts';
import { SETTLEMENT_JOBS } from './settlement-jobs.ts';
import { OPS_TOTP_SECRET, opsTotp } from '../../testing/ops-totp.ts';

/**
 * Payouts over the API on a test portal: a 3-level daily-wages chain settled by the test clock
 * (POST /wps/dev/agent-settlement/run, the jobs' code path), then statements, authorization,
 * disputes and their operator resolution, the simulator, income and the relay names.
 * Bets are written into the rollup (member_bet_hours) for the current hour.
 */
let t: TestPortal;
let ops: string;
const sockets: TestSocket[] = [];
beforeAll(async () => {
  t = await startTestPortal();
  await t.portal.cashier.operators.createOperator('DEMO', 'agboss', 'Boss12345678', ['administrator'], { totpSecret: OPS_TOTP_SECRET });
  ops = (await call<{ token: string }>('/ops/api/session/login', { body: { username: 'agboss', password: 'Boss12345678', totp: await opsTotp('agboss', t.url) } })).json!.value!.token;
}, 120_000);
afterAll(async () => {
  for (const s of sockets) s.close();
  expect(await checkLedger(t.portal.db)).toEqual([]);
  await t.stop();
});

type Json = Record<string, unknown>;
const call = apiOn(() => t.url);
const member = testMembers(() => t.url, { prefix: 'p' });
const terms = (kind: 'dailyWages' | 'hourlySalary', rate: number) => ({ kind, rate, activeMembers: 0, betAmount: 0, validBetPeriod: kind === 'dailyWages' ? 'daily' : 'hourly' });
async function contract(up: TestMember, down: TestMember, t0: Json) {
  const o = await call<TAgentContract>('/wps/agent/contracts', { token: up.token, body: { downlineId: down.memberId, terms: t0 } });
  expect(o.status).toBe(200);
  const a = await call(`/wps/agent/contracts/${o.json!.value!.id}/accept`, { token: down.token, body: {} });
  expect(a.status).toBe(200);
  return o.json!.value!.id;
}
/** A chain house -> a (300) -> b (200) -> c (100) of `kind`, a player under c and one under a. */
async function chain(kind: 'dailyWages' | 'hourlySalary') {
  const a = await member(1);
  const b = await member(1, a);
  const c = await member(1, b);
  const pc = await member(0, c);
  const pa = await member(0, a);
  expect((await call('/wps/dev/agent-contracts/house', { body: { memberId: a.memberId, terms: terms(kind, 300) } })).status).toBe(200);
  const cb = await contract(a, b, terms(kind, 200));
  const cc = await contract(b, c, terms(kind, 100));
  return { a, b, c, pc, pa, cb, cc };
}
async function bets(m: TestMember, hoursAgo: number, validBets: number, payout: number) {
  await t.portal.db.query(`INSERT INTO member_bet_hours (member_id, hour, bet_count, valid_bets, payout) VALUES ($1, date_trunc('hour', now() - make_interval(hours => $2), 'UTC'), 1, $3, $4)`,
    [m.memberId, hoursAgo, validBets, payout]);
}
const bal = async (m: TestMember) => (await balanceOf(t.portal.db, m.memberId, 'PHP')).balance;
const run = (body: Json) => call<{ at: string; failed: unknown[]; settled: { kind: string; periodKey: string; inserted: number }[] }>('/wps/dev/agent-settlement/run', { body });
const inDays = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();

describe('agent payouts over the API', () => {
  let x: Awaited<ReturnType<typeof chain>>;
  let sb: TestSocket;
  beforeAll(async () => {
    x = await chain('dailyWages');
    sb = await connectSocket(t.url, { token: x.b.token });
    sockets.push(sb);
    await bets(x.pc, 0, 1_000_000, 400_000);
    await bets(x.pa, 0, 500_000, 0);
    await bets(x.pc, 24, 300_000, 0); // yesterday: for the simulator only
    const r = await run({ kind: 'dailyWages', at: inDays(2) });
    expect(r.status).toBe(200);
    expect(r.json!.value!.failed).toEqual([]);
    expect(r.json!.value!.settled.reduce((n, s) => n + s.inserted, 0)).toBeGreaterThanOrEqual(3);
  }, 120_000);

  it('pays the chain down, live: house 45,000 to a, a 20,000 to b, b 10,000 to c', async () => {
    expect([await bal(x.a), await bal(x.b), await bal(x.c)]).toEqual([25_000, 10_000, 10_000]);
    const got = await call<{ list: TPayout[] }>('/wps/agent/payouts?role=received', { token: x.b.token });
    const mine = got.json!.value!.list.filter((p) => p.amount > 0);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ kind: 'dailyWages', payerId: x.a.memberId, payerAccount: x.a.account, payeeId: x.b.memberId, amount: 20_000, status: 'paid', disputeStatus: null, funded: true });
    const paid = await call<{ list: TPayout[] }>('/wps/agent/payouts?role=paid&kind=dailyWages', { token: x.b.token });
    expect(paid.json!.value!.list.filter((p) => p.amount > 0).map((p) => [p.payeeId, p.amount])).toEqual([[x.c.memberId, 10_000]]);
    // The agent centre keeps the kind's record in its menu for payouts, whatever becomes of the contract.
    const cons = await call<{ dailySalary: { hasPayouts: boolean }; dividend: { hasPayouts: boolean } }>('/wps/member/info/funds/consolidated', { token: x.b.token });
    expect([cons.json!.value!.dailySalary.hasPayouts, cons.json!.value!.dividend.hasPayouts]).toEqual([true, false]);
    await waitFor(() => sb.received.find((e) => e.type === 'contract.payout' && (e.payload as Json).amount === 20_000), 'payout event');
    await waitFor(() => sb.received.find((e) => e.type === 'balance.changed' && (e.payload as Json).delta === 20_000), 'balance event');
  });

  it('a rerun of the clock changes nothing', async () => {
    const r = await run({ kind: 'dailyWages', at: inDays(2) });
    expect(r.json!.value!.settled).toEqual([]);
    expect([await bal(x.a), await bal(x.b), await bal(x.c)]).toEqual([25_000, 10_000, 10_000]);
  });

  it('the statement explains the amount; only the payee\'s team sees it', async () => {
    const id = (await call<{ list: TPayout[] }>('/wps/agent/payouts', { token: x.b.token })).json!.value!.list.find((p) => p.amount > 0)!.id;
    const s = await call<{ payout: TPayout; statement: TPayoutStatement }>(`/wps/agent/payouts/${id}`, { token: x.b.token });
    expect(s.status).toBe(200);
    const st = s.json!.value!.statement;
    expect(st).toMatchObject({ base: 1_000_000, rate: 200, effectiveRate: 200, amount: 20_000, downlinesTook: 10_000, kept: 10_000 });
    expect(st.arithmetic.amount).toBe('floor(max(0, 1000000) × 200 / 10000) = 20000');
    expect(st.lines.find((l) => l.memberId === x.c.memberId)).toMatchObject({ account: x.c.account, took: 10_000, rate: 100 });
    expect(st.steps).toEqual([
      { code: 'team', params: { validBets: 1_000_000, profitLoss: -600_000, activeMembers: 1 } },
      { code: 'baseValidBets', params: { base: 1_000_000 } },
      { code: 'noConditions', params: {} },
      { code: 'amount', params: { base: 1_000_000, rate: 200, amount: 20_000 } },
      { code: 'passedOn', params: { amount: 20_000, downlinesTook: 10_000, kept: 10_000 } },
    ]);
    // A statement stored with the old English sentences answers codes too (built from its figures).
    await t.portal.db.query(`UPDATE agent_payouts SET statement = jsonb_set(statement, '{steps}', '["Team: valid bets 1000000."]'::jsonb) WHERE id = $1`, [id]);
    const old = await call<{ statement: TPayoutStatement }>(`/wps/agent/payouts/${id}`, { token: x.b.token });
    expect(old.json!.value!.statement.steps.map((x0) => x0.code)).toEqual(['team', 'baseValidBets', 'noConditions', 'amount', 'passedOn']);
    // The upline sees it too; the downline, another team's agent and a player do not.
    expect((await call(`/wps/agent/payouts/${id}`, { token: x.a.token })).status).toBe(200);
    const other = await member(1);
    for (const [who, m, code] of [['downline', x.c, 'NOT_IN_TREE'], ['other team', other, 'NOT_IN_TREE'], ['player', x.pc, 'NON_AGENT']] as const) {
      const r = await call(`/wps/agent/payouts/${id}`, { token: m.token });
      expect([who, r.status, r.json?.code]).toEqual([who, 403, code]);
    }
    const trial = await member(4);
    expect((await call('/wps/agent/payouts', { token: trial.token })).json?.code).toBe('TRIAL_FORBIDDEN');
    expect((await call('/wps/agent/payouts/999999999', { token: x.b.token })).json?.code).toBe('NOT_IN_TREE');
    for (const bad of ['/wps/agent/payouts/abc', '/wps/agent/payouts?role=boss', '/wps/agent/payouts?from=2026-02-30', '/wps/agent/payouts?from=2026-03-10&to=2026-03-01', '/wps/agent/payouts?pageSize=1000', '/wps/agent/payouts?pageNo=1e300']) {
      const r = await call(bad, { token: x.b.token });
      expect([bad, r.status, r.json?.code]).toEqual([bad, 400, 'VALIDATION']);
    }
  });

  it('the payee disputes once; an operator resolves with an adjustment paid to it and audited', async () => {
    const id = (await call<{ list: TPayout[] }>('/wps/agent/payouts', { token: x.c.token })).json!.value!.list.find((p) => p.amount > 0)!.id;
    expect((await call(`/wps/agent/payouts/${id}/disputes`, { token: x.c.token, body: { reason: 'no' } })).status).toBe(400);
    const byUpline = await call(`/wps/agent/payouts/${id}/disputes`, { token: x.b.token, body: { reason: 'not mine to dispute' } });
    expect([byUpline.status, byUpline.json?.code]).toEqual([403, 'FORBIDDEN']);
    const d = await call<TDispute>(`/wps/agent/payouts/${id}/disputes`, { token: x.c.token, body: { reason: 'my team bet more than that' } });
    expect(d.status).toBe(200);
    expect(d.json!.value).toMatchObject({ payoutId: id, status: 'open', payoutAmount: 10_000 });
    const twice = await call(`/wps/agent/payouts/${id}/disputes`, { token: x.c.token, body: { reason: 'again, please look' } });
    expect([twice.status, twice.json?.code]).toEqual([409, 'CONFLICT']);
    expect((await call<{ list: TDispute[] }>('/wps/agent/disputes', { token: x.c.token })).json!.value!.list.map((y) => y.id)).toEqual([d.json!.value!.id]);

    const did = d.json!.value!.id;
    expect((await call(`/ops/api/agent-disputes?status=open`, { token: x.c.token })).status).toBe(401);
    const list = await call<{ list: { id: number }[] }>('/ops/api/agent-disputes?status=open', { token: ops });
    expect(list.json!.value!.list.map((y) => y.id)).toContain(did);
    expect((await call(`/ops/api/agent-disputes/${did}/resolve`, { token: ops, body: { decision: 'adjusted', amount: -5, note: 'x' } })).status).toBe(400);
    const before = await bal(x.c);
    const res = await call<Json>(`/ops/api/agent-disputes/${did}/resolve`, { token: ops, body: { decision: 'adjusted', amount: 500, note: 'recounted' } });
    expect(res.status).toBe(200);
    expect(res.json!.value).toMatchObject({ status: 'adjusted', adjustment: 500, resolvedBy: 'agboss' });
    expect(await bal(x.c)).toBe(before + 500);
    const again = await call(`/ops/api/agent-disputes/${did}/resolve`, { token: ops, body: { decision: 'rejected', note: 'x' } });
    expect([again.status, again.json?.code]).toEqual([409, 'INVALID_STATE']);
    const audit = await t.portal.db.query<{ action: string }>(`SELECT action FROM audit_log WHERE target_type = 'agentDispute' AND target_id = $1`, [String(did)]);
    expect(audit.rows.map((r) => r.action)).toEqual(['agentDispute.resolve']);
    const p = await call<{ payout: TPayout }>(`/wps/agent/payouts/${id}`, { token: x.c.token });
    expect(p.json!.value!.payout).toMatchObject({ status: 'adjusted', adjustedAmount: 500, disputeStatus: 'adjusted' });
  });

  it('an adjustment of an unfunded payout is charged to the upline that owed it, only when it can cover it; the house pays only what is above the debt', async () => {
    // house -> a (30 %) -> b (20 %) dividend: b's player lost 1,000,000, a's own player won 900,000. a gets 30,000 and owes b 200,000: unfunded.
    const div = (rate: number) => ({ kind: 'dividend', rate, activeMembers: 0, betAmount: 0, profitLossPeriod: 'daily' });
    const a = await member(1);
    const b = await member(1, a);
    const pb = await member(0, b);
    const pa = await member(0, a);
    expect((await call('/wps/dev/agent-contracts/house', { body: { memberId: a.memberId, terms: div(3000) } })).status).toBe(200);
    await contract(a, b, div(2000));
    await bets(pb, 0, 1_000_000, 0);
    await bets(pa, 0, 100_000, 1_000_000);
    expect((await run({ kind: 'dividend', at: inDays(2) })).json!.value!.failed).toEqual([]);
    const owed = (await call<{ list: TPayout[] }>('/wps/agent/payouts?role=received&kind=dividend', { token: b.token })).json!.value!.list[0]!;
    expect(owed).toMatchObject({ payerId: a.memberId, amount: 200_000, status: 'unfunded' });
    expect([await bal(a), await bal(b)]).toEqual([30_000, 0]);
    // Operators see the unfunded payout before anyone disputes it: by status, by the payee's or the
    // payer's account (any case), by kind; a member token is no operator's, bad filters a 400.
    const unfunded = await call<{ list: TPayout[]; total: number }>('/ops/api/agent-payouts?status=unfunded', { token: ops });
    expect(unfunded.status, unfunded.text).toBe(200);
    expect(unfunded.json!.value!.list.find((y) => y.id === owed.id)).toMatchObject({ payeeAccount: b.account, payerAccount: a.account, amount: 200_000, status: 'unfunded', disputeStatus: null });
    expect(unfunded.json!.value!.list.every((y) => y.status === 'unfunded')).toBe(true);
    for (const who of [b.account.toUpperCase(), a.account]) {
      const byAccount = await call<{ list: TPayout[] }>(`/ops/api/agent-payouts?account=${who}&kind=dividend`, { token: ops });
      expect(byAccount.json!.value!.list.map((y) => y.id), who).toContain(owed.id);
      expect(byAccount.json!.value!.list.every((y) => y.kind === 'dividend' && [y.payeeAccount, y.payerAccount].some((x0) => x0?.toLowerCase() === who.toLowerCase())), who).toBe(true);
    }
    expect((await call<{ total: number }>(`/ops/api/agent-payouts?account=${b.account}&kind=dailyWages`, { token: ops })).json!.value!.total).toBe(0);
    expect((await call('/ops/api/agent-payouts', { token: b.token })).status).toBe(401);
    for (const bad of ['status=lost', 'kind=bonus', 'pageSize=1000', 'sort=id']) {
      const r = await call(`/ops/api/agent-payouts?${bad}`, { token: ops });
      expect([bad, r.status, r.json?.code]).toEqual([bad, 400, 'VALIDATION']);
    }
    const d = (await call<TDispute>(`/wps/agent/payouts/${owed.id}/disputes`, { token: b.token, body: { reason: 'my upline never paid me' } })).json!.value!;
    const listed = await call<{ list: Json[] }>('/ops/api/agent-disputes?status=open', { token: ops });
    expect(listed.json!.value!.list.find((y) => y.id === d.id)).toMatchObject({ payoutStatus: 'unfunded', payerAccount: a.account, owedByPayer: 200_000, adjustmentFromPayer: null });

    // a has 30,000: it cannot cover 50,000 of what it owes. Nothing moves, the house pays nothing, the payout stays unfunded, the dispute open.
    const refused = await call(`/ops/api/agent-disputes/${d.id}/resolve`, { token: ops, body: { decision: 'adjusted', amount: 50_000, note: 'upline pays' } });
    expect([refused.status, refused.json?.code]).toEqual([409, 'AGENT_PAYER_CANNOT_FUND']);
    expect([await bal(a), await bal(b)]).toEqual([30_000, 0]);
    expect((await call<{ payout: TPayout }>(`/wps/agent/payouts/${owed.id}`, { token: b.token })).json!.value!.payout).toMatchObject({ status: 'unfunded', adjustedAmount: 0, disputeStatus: 'open', funded: false });

    // a is funded; 250,000 granted: the 200,000 a owed comes from a, the 50,000 above it from the house's adjustment account.
    await t.portal.db.tx((tx) => transfer(tx, { merchant: 'DEMO', currency: 'PHP', key: `test-fund:${a.memberId}`, kind: 'deposit', debit: { system: 'deposit' }, credit: { member: a.memberId }, amount: 250_000 }));
    const res = await call<Json>(`/ops/api/agent-disputes/${d.id}/resolve`, { token: ops, body: { decision: 'adjusted', amount: 250_000, note: 'upline pays its debt, plus goodwill' } });
    expect(res.status).toBe(200);
    expect(res.json!.value).toMatchObject({ status: 'adjusted', adjustment: 250_000, adjustmentFromPayer: 200_000, adjustmentFromHouse: 50_000, payoutStatus: 'adjusted', owedByPayer: 0 });
    expect([await bal(a), await bal(b)]).toEqual([80_000, 250_000]);
    const keys = (await t.portal.db.query<{ key: string; amount: string }>(`SELECT idempotency_key AS key, amount::text FROM ledger_transfers WHERE idempotency_key LIKE $1 ORDER BY idempotency_key`, [`agent-dispute:${d.id}%`])).rows;
    expect(keys).toEqual([{ key: `agent-dispute:${d.id}`, amount: '200000' }, { key: `agent-dispute:${d.id}:house`, amount: '50000' }]);
    expect((await call<{ payout: TPayout }>(`/wps/agent/payouts/${owed.id}`, { token: b.token })).json!.value!.payout).toMatchObject({ status: 'adjusted', adjustedAmount: 250_000 });
    // a's income counts the debt it paid; b's counts all it received.
    const ia = (await call<TIncomeValue>('/wps/agent/income', { token: a.token })).json!.value!.kinds.find((k) => k.kind === 'dividend');
    expect(ia).toEqual({ kind: 'dividend', received: 30_000, paid: 200_000, net: -170_000 });
    const ib = (await call<TIncomeValue>('/wps/agent/income', { token: b.token })).json!.value!.kinds.find((k) => k.kind === 'dividend');
    expect(ib).toMatchObject({ received: 250_000 });
  });

  it('income: received from the upline, paid to downlines, net', async () => {
    const r = await call<TIncomeValue>('/wps/agent/income', { token: x.b.token });
    expect(r.status).toBe(200);
    expect(r.json!.value!.kinds.find((k) => k.kind === 'dailyWages')).toEqual({ kind: 'dailyWages', received: 20_000, paid: 10_000, net: 10_000 });
    expect(r.json!.value!.totals).toEqual({ received: 20_000, paid: 10_000, net: 10_000 });
  });

  it('simulate: past periods with the same settlement, capped at the caller\'s own rate; nothing written', async () => {
    const n0 = (await t.portal.db.query<{ n: number }>('SELECT count(*)::int AS n FROM agent_payouts')).rows[0]!.n;
    const s = await call<TSimulateValue>('/wps/agent/contracts/simulate', { token: x.a.token, body: { downlineId: x.b.memberId, terms: terms('dailyWages', 100), periods: 2 } });
    expect(s.status).toBe(200);
    expect(s.json!.value!.periods).toHaveLength(2);
    expect(s.json!.value!.periods[0]).toMatchObject({ validBets: 300_000, base: 300_000, effectiveRate: 100, amount: 3_000 });
    const capped = await call<TSimulateValue>('/wps/agent/contracts/simulate', { token: x.a.token, body: { downlineId: x.b.memberId, terms: terms('dailyWages', 400), periods: 1 } });
    expect(capped.json!.value!.periods[0]).toMatchObject({ effectiveRate: 300, amount: 9_000 });
    expect((await t.portal.db.query<{ n: number }>('SELECT count(*)::int AS n FROM agent_payouts')).rows[0]!.n).toBe(n0);
    const outside = await call('/wps/agent/contracts/simulate', { token: x.c.token, body: { downlineId: x.b.memberId, terms: terms('dailyWages', 100), periods: 1 } });
    expect([outside.status, outside.json?.code]).toEqual([403, 'NOT_IN_TREE']);
    const bad = await call('/wps/agent/contracts/simulate', { token: x.a.token, body: { downlineId: x.b.memberId, terms: terms('dailyWages', 100), periods: 13 } });
    expect(bad.status).toBe(400);
  });

  it('relay names map to the contract calls of their kind', async () => {
    const l = await call<{ list: TAgentContract[] }>('/wps/relay/MCS2_processDailySalContract', { token: x.c.token, body: { action: 'list', role: 'received' } });
    expect(l.status).toBe(200);
    expect(l.json!.value!.list.map((c) => c.id)).toEqual([x.cc]);
    const none = await call<{ list: TAgentContract[] }>('/wps/relay/MCS2_processDividendReq', { token: x.c.token, body: { action: 'list' } });
    expect(none.json!.value!.list).toEqual([]);
    const wrongKind = await call('/wps/relay/MCS2_processContractHourSalary', { token: x.c.token, body: { action: 'terminate', contractId: x.cc } });
    expect([wrongKind.status, wrongKind.json?.code]).toEqual([400, 'VALIDATION']);
    const notMine = await call('/wps/relay/MCS2_processDailySalContract', { token: x.c.token, body: { action: 'terminate', contractId: x.cb } });
    expect([notMine.status, notMine.json?.code]).toEqual([403, 'NOT_IN_TREE']);
    expect((await call('/wps/relay/MCS2_processDailySalContract', { token: x.c.token, body: { action: 'fly' } })).status).toBe(400);
    expect((await call('/wps/relay/MCS2_processDailySalContract', { token: x.b.token, body: { action: 'offer', terms: { rate: 50 } } })).status).toBe(400);
  });

  it('the settlement jobs are defined on the job queue and run', async () => {
    for (const job of Object.values(SETTLEMENT_JOBS)) {
      const key = new Date(Math.floor(Date.now() / 60_000) * 60_000).toISOString();
      const state = await t.portal.jobs.runNow(job.name, key);
      expect([job.name, state.state, state.lastError]).toEqual([job.name, 'done', null]);
    }
  });

  it('two concurrent clock runs settle a period once', async () => {
    const y = await chain('hourlySalary');
    await bets(y.pc, 0, 100_000, 0);
    const at = new Date(Date.now() + 3 * 3600_000).toISOString();
    const [r1, r2] = await Promise.all([run({ kind: 'hourlySalary', at }), run({ kind: 'hourlySalary', at })]);
    expect([r1.status, r2.status]).toEqual([200, 200]);
    const rows = (await t.portal.db.query<{ n: number; total: string }>('SELECT count(*)::int AS n, sum(amount)::text AS total FROM agent_payouts WHERE payee_id = $1', [y.b.memberId])).rows[0]!;
    expect(Number(rows.total)).toBe(2_000);
    expect([await bal(y.a), await bal(y.b), await bal(y.c)]).toEqual([1_000, 1_000, 1_000]);
  });
});
