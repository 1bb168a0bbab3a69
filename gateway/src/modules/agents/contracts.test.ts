import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAgentContract, TContractToEnd } from '@portal/contracts/api/agent-contracts';
import { connectSocket, startTestPortal, waitFor, type TestPortal, type TestSocket } from '../../testing/test-portal.ts';
import { apiOn, testMembers, type TestMember } from '../../testing/test-members.ts';

let t: TestPortal;
const sockets: TestSocket[] = [];
beforeAll(async () => {
  t = await startTestPortal();
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t.stop();
});

type Json = Record<string, unknown>;
const call = apiOn(() => t.url);

const member = testMembers(() => t.url, { prefix: 'c' });
async function socketOf(m: TestMember) {
  const s = await connectSocket(t.url, { token: m.token });
  sockets.push(s);
  return s;
}

const wages = (rate: number, extra: Json = {}) => ({ kind: 'dailyWages', rate, activeMembers: 0, betAmount: 0, validBetPeriod: 'daily', ...extra });

/** A top agent (house contract of daily wages at `houseRate`), its agent downline B, B's agent downline C, and a player P under A. */
async function team(houseRate = 300) {
  const a = await member(1);
  const b = await member(1, a);
  const c = await member(1, b);
  const p = await member(0, a);
  const house = await call<TAgentContract>('/wps/dev/agent-contracts/house', { body: { memberId: a.memberId, terms: wages(houseRate) } });
  expect(house.status).toBe(200);
  expect(house.json!.value).toMatchObject({ uplineId: null, downlineId: a.memberId, status: 'active' });
  return { a, b, c, p };
}

const offer = (from: TestMember, to: TestMember, terms: Json) => call<TAgentContract>('/wps/agent/contracts', { token: from.token, body: { downlineId: to.memberId, terms } });
const act = (m: TestMember, id: number, what: 'accept' | 'reject' | 'withdraw' | 'terminate', body: Json = {}) =>
  call<TAgentContract & { contract: TAgentContract; ended: TContractToEnd[] }>(`/wps/agent/contracts/${id}/${what}`, { token: m.token, body });

async function contractsOf(memberId: number) {
  return (await t.portal.db.query<{ id: number; upline_id: number | null; status: string; rate: number; end_reason: string | null }>(
    'SELECT id, upline_id, status, rate, end_reason FROM agent_contracts WHERE downline_id = $1 ORDER BY id', [memberId])).rows;
}
async function auditOf(contractId: number) {
  return (await t.portal.db.query<{ from_status: string | null; to_status: string; actor_member_id: number | null; reason: string | null }>(
    'SELECT from_status, to_status, actor_member_id, reason FROM agent_contract_audit WHERE contract_id = $1 ORDER BY id', [contractId])).rows;
}

describe('agent contracts over the API', () => {
  it('an offer reaches the downline live; its acceptance reaches both parties live; both are audited', async () => {
    const { a, b } = await team();
    const sa = await socketOf(a);
    const sb = await socketOf(b);
    const o = await offer(a, b, wages(200, { activeMembers: 3 }));
    expect(o.status).toBe(200);
    const id = o.json!.value!.id;
    expect(o.json!.value).toMatchObject({ status: 'offered', uplineId: a.memberId, uplineAccount: a.account, downlineId: b.memberId, kind: 'dailyWages', terms: { rate: 200, activeMembers: 3 } });
    const offered = await waitFor(() => sb.received.find((e) => e.type === 'contract.offered' && (e.payload as Json).contractId === String(id)), 'offer on the downline socket');
    expect(offered.payload).toMatchObject({ kind: 'daily_salary', status: 'offered', uplineId: a.memberId, uplineAccount: a.account, downlineId: b.memberId, rateBps: 200 });
    await waitFor(() => sa.received.find((e) => e.type === 'contract.offered' && (e.payload as Json).contractId === String(id)), 'offer on the upline socket');

    const received = await call<{ list: TAgentContract[]; total: number }>('/wps/agent/contracts?role=received&status=offered', { token: b.token });
    expect(received.json!.value!.list.map((c) => c.id)).toEqual([id]);

    const acc = await act(b, id, 'accept');
    expect(acc.status).toBe(200);
    expect(acc.json!.value!.contract).toMatchObject({ id, status: 'active' });
    expect(acc.json!.value!.ended).toEqual([]);
    for (const s of [sa, sb]) {
      await waitFor(() => s.received.find((e) => e.type === 'contract.updated' && (e.payload as Json).contractId === String(id) && (e.payload as Json).status === 'accepted'), 'acceptance event');
    }
    expect(await auditOf(id)).toEqual([
      { from_status: null, to_status: 'offered', actor_member_id: a.memberId, reason: null },
      { from_status: 'offered', to_status: 'active', actor_member_id: b.memberId, reason: null },
    ]);
    const given = await call<{ list: TAgentContract[] }>('/wps/agent/contracts?role=given', { token: a.token });
    expect(given.json!.value!.list.map((c) => [c.id, c.status])).toEqual([[id, 'active']]);
  });

  it('a rejection ends the offer, reaches the upline live, and cannot be answered again', async () => {
    const { a, b } = await team();
    const sa = await socketOf(a);
    const id = (await offer(a, b, wages(100))).json!.value!.id;
    const r = await act(b, id, 'reject');
    expect(r.status).toBe(200);
    expect(r.json!.value).toMatchObject({ status: 'rejected', endedBy: b.memberId });
    await waitFor(() => sa.received.find((e) => e.type === 'contract.updated' && (e.payload as Json).contractId === String(id) && (e.payload as Json).status === 'rejected'), 'rejection event');
    for (const what of ['accept', 'reject', 'withdraw', 'terminate'] as const) {
      const again = await act(what === 'withdraw' ? a : b, id, what);
      expect([what, again.status, again.json?.code]).toEqual([what, 409, 'INVALID_STATE']);
    }
    expect((await contractsOf(b.memberId)).map((c) => c.status)).toEqual(['rejected']);
  });

  it('a withdrawn offer cannot be accepted, and only the upline withdraws', async () => {
    const { a, b } = await team();
    const id = (await offer(a, b, wages(100))).json!.value!.id;
    const byDownline = await act(b, id, 'withdraw');
    expect([byDownline.status, byDownline.json?.code]).toEqual([403, 'FORBIDDEN']);
    const byUplineAccept = await act(a, id, 'accept');
    expect([byUplineAccept.status, byUplineAccept.json?.code]).toEqual([403, 'FORBIDDEN']);
    expect((await act(a, id, 'withdraw')).json!.value).toMatchObject({ status: 'withdrawn', endedBy: a.memberId });
    const late = await act(b, id, 'accept');
    expect([late.status, late.json?.success, late.json?.code]).toEqual([409, false, 'INVALID_STATE']);
    expect((await contractsOf(b.memberId)).map((c) => c.status)).toEqual(['withdrawn']);
    // The withdrawn offer no longer blocks a new one.
    expect((await offer(a, b, wages(90))).status).toBe(200);
  });

  it('refuses terms the upline cannot give, with nothing stored', async () => {
    const { a, b, c } = await team(300);
    const cases: Array<[Json, number, string]> = [
      [wages(301), 400, 'CONTRACT_RATE_ABOVE_UPLINE'],
      [wages(501), 400, 'CONTRACT_RATE_OUT_OF_RANGE'],
      [wages(0), 400, 'VALIDATION'],
      [wages(100, { validBetPeriod: 'hourly' }), 400, 'VALIDATION'],
      [{ kind: 'hourlySalary', rate: 10, activeMembers: 0, betAmount: 0, validBetPeriod: 'hourly' }, 409, 'CONTRACT_NO_UPLINE_CONTRACT'],
      [wages(100, { extra: 1 }), 400, 'VALIDATION'],
    ];
    for (const [terms, status, code] of cases) {
      const r = await offer(a, b, terms);
      expect([terms, r.status, r.json?.success, r.json?.code]).toEqual([terms, status, false, code]);
    }
    // B has no contract of its own: nothing to share with C.
    const none = await offer(b, c, wages(10));
    expect([none.status, none.json?.code]).toEqual([409, 'CONTRACT_NO_UPLINE_CONTRACT']);
    const openTwice = [await offer(a, b, wages(100)), await offer(a, b, wages(110))];
    expect(openTwice.map((r) => [r.status, r.json?.code])).toEqual([[200, undefined], [409, 'INVALID_STATE']]);
    expect(await contractsOf(b.memberId)).toHaveLength(1);
    expect(await contractsOf(c.memberId)).toHaveLength(0);
  });

  it('offers go to a direct downline agent only: 403 for a deeper member or another team, 409 for a player', async () => {
    const { a, b, c, p } = await team();
    const other = await team();
    const deeper = await offer(a, c, wages(100));
    expect([deeper.status, deeper.json?.code]).toEqual([403, 'CONTRACT_NOT_DIRECT_DOWNLINE']);
    for (const stranger of [other.a, other.b, { ...b, memberId: 999_999_999 }]) {
      const r = await offer(a, stranger, wages(100));
      expect([r.status, r.json?.code]).toEqual([403, 'NOT_IN_TREE']);
    }
    const upward = await offer(b, a, wages(100));
    expect([upward.status, upward.json?.code]).toEqual([403, 'NOT_IN_TREE']);
    const toPlayer = await offer(a, p, wages(100));
    expect([toPlayer.status, toPlayer.json?.code]).toEqual([409, 'CONTRACT_DOWNLINE_NOT_AGENT']);
    const disabled = await member(1, a);
    expect((await call(`/wps/dev/members/${disabled.memberId}/disable`, { body: {} })).status).toBe(200);
    const toDisabled = await offer(a, disabled, wages(100));
    expect([toDisabled.status, toDisabled.json?.code]).toEqual([409, 'INVALID_STATE']);
    for (const m of [b, c, p, other.a, other.b, disabled]) {
      expect((await contractsOf(m.memberId)).filter((x) => x.upline_id !== null)).toEqual([]);
    }
  });

  it('accepting a lower rate ends the downline contracts above it only with consent, in the same transaction', async () => {
    const { a, b, c } = await team(300);
    const d = await member(1, c);
    const ab = (await offer(a, b, wages(250))).json!.value!.id;
    await act(b, ab, 'accept');
    const bc = (await offer(b, c, wages(200))).json!.value!.id;
    await act(c, bc, 'accept');
    const cd = (await offer(c, d, wages(150))).json!.value!.id;
    await act(d, cd, 'accept');
    const sc = await socketOf(c);
    const sd = await socketOf(d);

    const lower = (await offer(a, b, wages(180))).json!.value!.id;
    const plan = await call<{ end: TContractToEnd[] }>(`/wps/agent/contracts/${lower}/acceptance-plan`, { token: b.token });
    expect(plan.json!.value!.end).toEqual([
      { contractId: bc, downlineId: c.memberId, downlineAccount: c.account, rate: 200, reason: 'rateAboveNewUplineRate' },
      { contractId: cd, downlineId: d.memberId, downlineAccount: d.account, rate: 150, reason: 'uplineContractEnded' },
    ]);

    for (const consent of [[], [bc]]) {
      const refused = await act(b, lower, 'accept', { endContractIds: consent });
      expect([refused.status, refused.json?.code]).toEqual([409, 'CONTRACT_CONSENT_REQUIRED']);
      expect((refused.json!.value as unknown as { mustEnd: TContractToEnd[] }).mustEnd.map((e) => e.contractId)).toEqual([bc, cd]);
    }
    // Nothing changed by the refusals.
    expect((await contractsOf(b.memberId)).map((x) => [x.id, x.status])).toEqual([[ab, 'active'], [lower, 'offered']]);
    expect((await contractsOf(c.memberId)).map((x) => x.status)).toEqual(['active']);
    expect((await contractsOf(d.memberId)).map((x) => x.status)).toEqual(['active']);

    const ok = await act(b, lower, 'accept', { endContractIds: [bc, cd] });
    expect(ok.status).toBe(200);
    expect(ok.json!.value!.ended.map((e) => [e.contractId, e.reason])).toEqual([[bc, 'rateAboveNewUplineRate'], [cd, 'uplineContractEnded']]);
    expect((await contractsOf(b.memberId)).map((x) => [x.id, x.status, x.end_reason])).toEqual([[ab, 'ended', 'replacedByNewContract'], [lower, 'active', null]]);
    expect((await contractsOf(c.memberId)).map((x) => [x.status, x.end_reason])).toEqual([['ended', 'rateAboveNewUplineRate']]);
    expect((await contractsOf(d.memberId)).map((x) => [x.status, x.end_reason])).toEqual([['ended', 'uplineContractEnded']]);
    expect(await auditOf(bc)).toContainEqual({ from_status: 'active', to_status: 'ended', actor_member_id: b.memberId, reason: 'rateAboveNewUplineRate' });
    await waitFor(() => sc.received.find((e) => e.type === 'contract.updated' && (e.payload as Json).contractId === String(bc) && (e.payload as Json).status === 'ended'), 'C sees its contract end');
    await waitFor(() => sd.received.find((e) => e.type === 'contract.updated' && (e.payload as Json).contractId === String(cd) && (e.payload as Json).status === 'ended'), 'D sees its contract end');

    // A lower rate that every downline contract fits under needs no consent.
    const ce = (await offer(b, c, wages(100))).json!.value!.id;
    expect((await act(c, ce, 'accept')).status).toBe(200);
    const lowerStill = (await offer(a, b, wages(120))).json!.value!.id;
    const quiet = await act(b, lowerStill, 'accept');
    expect([quiet.status, quiet.json!.value!.ended]).toEqual([200, []]);
  });

  it('an offer whose upline contract ended meanwhile is withdrawn, and its acceptance refused', async () => {
    const { a, b, c } = await team(300);
    const ab = (await offer(a, b, wages(200))).json!.value!.id;
    await act(b, ab, 'accept');
    const bc = (await offer(b, c, wages(150))).json!.value!.id;
    const term = await act(a, ab, 'terminate');
    expect(term.json!.value!.contract).toMatchObject({ status: 'terminated', endReason: 'terminatedByUpline', endedBy: a.memberId });
    const r = await act(c, bc, 'accept');
    expect([r.status, r.json?.code]).toEqual([409, 'INVALID_STATE']);
    expect((await contractsOf(c.memberId)).map((x) => x.status)).toEqual(['withdrawn']);
  });

  it('either party terminates; what the downline gave below ends with it and everyone hears', async () => {
    const { a, b, c } = await team(300);
    const ab = (await offer(a, b, wages(200))).json!.value!.id;
    await act(b, ab, 'accept');
    const bc = (await offer(b, c, wages(150))).json!.value!.id;
    await act(c, bc, 'accept');
    const sa = await socketOf(a);
    const sc = await socketOf(c);
    const byC = await call('/wps/agent/contracts/' + ab + '/terminate', { token: c.token, body: {} });
    expect([byC.status, byC.json?.code]).toEqual([403, 'NOT_IN_TREE']);
    const r = await act(b, ab, 'terminate');
    expect(r.status).toBe(200);
    expect(r.json!.value!.contract).toMatchObject({ status: 'terminated', endReason: 'terminatedByDownline', endedBy: b.memberId });
    expect(r.json!.value!.ended.map((e) => [e.contractId, e.reason])).toEqual([[bc, 'uplineContractEnded']]);
    await waitFor(() => sa.received.find((e) => e.type === 'contract.updated' && (e.payload as Json).contractId === String(ab) && (e.payload as Json).status === 'terminated'), 'A hears the termination');
    await waitFor(() => sc.received.find((e) => e.type === 'contract.updated' && (e.payload as Json).contractId === String(bc) && (e.payload as Json).endReason === 'uplineContractEnded'), 'C hears its end');
    const again = await act(a, ab, 'terminate');
    expect([again.status, again.json?.code]).toEqual([409, 'INVALID_STATE']);
  });

  it("an agent's open offers that no longer fit its own contract are withdrawn when that contract ends or drops, and the downline hears", async () => {
    const { a, b, c } = await team(300);
    const ab = (await offer(a, b, wages(200))).json!.value!.id;
    await act(b, ab, 'accept');
    // B offers C terms within its 2%; then B's own contract ends: the offer had nothing left to share.
    const bc = (await offer(b, c, wages(150))).json!.value!.id;
    const sc = await socketOf(c);
    expect((await act(b, ab, 'terminate')).status).toBe(200);
    expect((await contractsOf(c.memberId)).find((x) => x.id === bc)).toMatchObject({ status: 'withdrawn', end_reason: 'uplineContractEnded' });
    expect((await auditOf(bc)).at(-1)).toMatchObject({ from_status: 'offered', to_status: 'withdrawn', actor_member_id: null, reason: 'uplineContractEnded' });
    await waitFor(() => sc.received.find((e) => e.type === 'contract.updated' && (e.payload as Json).contractId === String(bc) && (e.payload as Json).status === 'withdrawn'), 'C hears the offer withdrawn');
    // A lower contract for B: its open offers above the new rate go, those within it stay.
    const ab2 = (await offer(a, b, wages(250))).json!.value!.id;
    await act(b, ab2, 'accept');
    const high = (await offer(b, c, wages(240))).json!.value!.id;
    const ab3 = (await offer(a, b, wages(100))).json!.value!.id;
    expect((await act(b, ab3, 'accept')).status).toBe(200);
    expect((await contractsOf(c.memberId)).find((x) => x.id === high)).toMatchObject({ status: 'withdrawn', end_reason: 'uplineContractEnded' });
    const low = (await offer(b, c, wages(90))).json!.value!.id;
    const ab4 = (await offer(a, b, wages(95))).json!.value!.id;
    expect((await act(b, ab4, 'accept')).status).toBe(200);
    expect((await contractsOf(c.memberId)).find((x) => x.id === low)).toMatchObject({ status: 'offered' });
    expect((await act(c, low, 'accept')).status).toBe(200);
  });

  it('racing answers: of an accept and a withdraw, or two offers, exactly one wins', async () => {
    const { a, b } = await team();
    for (let i = 0; i < 3; i++) {
      const id = (await offer(a, b, wages(100 + i))).json!.value!.id;
      const [acc, wd] = await Promise.all([act(b, id, 'accept'), act(a, id, 'withdraw')]);
      const statuses = [acc.status, wd.status].sort();
      expect(statuses).toEqual([200, 409]);
      const loser = acc.status === 409 ? acc : wd;
      expect(loser.json?.code).toBe('INVALID_STATE');
      const final = (await contractsOf(b.memberId)).find((c) => c.id === id)!;
      expect(final.status).toBe(acc.status === 200 ? 'active' : 'withdrawn');
    }
    const both = await Promise.all([offer(a, b, wages(50)), offer(a, b, wages(60))]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await contractsOf(b.memberId)).filter((c) => c.status === 'offered')).toHaveLength(1);
    expect((await contractsOf(b.memberId)).filter((c) => c.status === 'active').length).toBeLessThanOrEqual(1);
  });

  it('authorization matrix: player, trial, another team\'s agent, anonymous; bad ids', async () => {
    const { a, b, p } = await team();
    const other = await team();
    const trial = await member(4);
    const id = (await offer(a, b, wages(100))).json!.value!.id;
    const calls = (m: TestMember | null) => [
      call('/wps/agent/contracts', { ...(m ? { token: m.token } : {}) }),
      call('/wps/agent/contracts', { ...(m ? { token: m.token } : {}), body: { downlineId: b.memberId, terms: wages(50) } }),
      call(`/wps/agent/contracts/${id}/acceptance-plan`, { ...(m ? { token: m.token } : {}) }),
      ...(['accept', 'reject', 'withdraw', 'terminate'] as const).map((w) => call(`/wps/agent/contracts/${id}/${w}`, { ...(m ? { token: m.token } : {}), body: {} })),
    ];
    for (const [who, m, status, code] of [['player', p, 403, 'NON_AGENT'], ['trial', trial, 403, 'TRIAL_FORBIDDEN'], ['anonymous', null, 401, 'UNAUTHORIZED']] as const) {
      for (const r of await Promise.all(calls(m))) expect([who, r.status, r.json?.success, r.json?.code]).toEqual([who, status, false, code]);
    }
    // Another team's agents see nothing of this contract, as if it did not exist.
    for (const stranger of [other.a, other.b]) {
      const rs = await Promise.all(calls(stranger).slice(2));
      for (const r of rs) expect([r.status, r.json?.code]).toEqual([403, 'NOT_IN_TREE']);
      expect((await call<{ total: number }>('/wps/agent/contracts', { token: stranger.token })).json!.value!.total).toBe(stranger === other.a ? 1 : 0);
    }
    const missing = await act(b, 999_999_999, 'accept');
    expect([missing.status, missing.json?.code]).toEqual([403, 'NOT_IN_TREE']);
    for (const bad of ['abc', '0', '-1', '1.5', '99999999999999999999']) {
      const r = await call(`/wps/agent/contracts/${bad}/accept`, { token: b.token, body: {} });
      expect([bad, r.status, r.json?.code]).toEqual([bad, 400, 'VALIDATION']);
    }
    const badBody = await call(`/wps/agent/contracts/${id}/accept`, { token: b.token, body: { endContractIds: 'all' } });
    expect([badBody.status, badBody.json?.code]).toEqual([400, 'VALIDATION']);
    const badQuery = await call('/wps/agent/contracts?status=nope', { token: a.token });
    expect([badQuery.status, badQuery.json?.code]).toEqual([400, 'VALIDATION']);
    expect((await contractsOf(b.memberId)).map((x) => x.status)).toEqual(['offered']);
  });
});
