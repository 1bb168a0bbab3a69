import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAgentContract, TContractToEnd } from '@portal/contracts/api/agent-contracts';
import type { TOpsTreeValue } from '@portal/contracts/api/ops-agents';
import { connectSocket, startTestPortal, waitFor, type TestPortal, type TestSocket } from '../../testing/test-portal.ts';
import { apiOn, testMembers, type TestMember } from '../../testing/test-members.ts';
import { OPS_TOTP_SECRET, opsTotp } from '../../testing/ops-totp.ts';

let t: TestPortal;
let admin = '';
let reader = '';
const sockets: TestSocket[] = [];
beforeAll(async () => {
  t = await startTestPortal();
  await t.portal.cashier.operators.createOperator('DEMO', 'agboss', 'Boss12345678', ['administrator'], { totpSecret: OPS_TOTP_SECRET });
  await t.portal.cashier.operators.createOperator('DEMO', 'agreader', 'Reader12345678', ['risk'], { totpSecret: OPS_TOTP_SECRET });
  admin = (await call<{ token: string }>('/ops/api/session/login', { body: { username: 'agboss', password: 'Boss12345678', totp: await opsTotp('agboss', t.url) } })).json!.value!.token;
  reader = (await call<{ token: string }>('/ops/api/session/login', { body: { username: 'agreader', password: 'Reader12345678', totp: await opsTotp('agreader', t.url) } })).json!.value!.token;
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t.stop();
});

type Json = Record<string, unknown>;
const call = apiOn(() => t.url);
const member = testMembers(() => t.url, { prefix: 'o' });
const wages = (rate: number) => ({ kind: 'dailyWages', rate, activeMembers: 0, betAmount: 0, validBetPeriod: 'daily' });
const grant = (token: string, memberId: number, terms: Json) => call<TAgentContract>('/ops/api/agents/house-contracts', { token, body: { memberId, terms } });
const terminate = (token: string, id: number, body: Json) => call<{ contract: TAgentContract; ended: TContractToEnd[] }>(`/ops/api/agents/contracts/${id}/terminate`, { token, body });
async function auditOf(targetId: number) {
  const r = await call<{ list: Array<{ action: string; operator: string; before: Json | null; after: Json }> }>(`/ops/api/audit?targetType=agent_contract&targetId=${targetId}`, { token: admin });
  return r.json!.value!.list;
}

describe('operator agent calls', () => {
  it('refuse a missing session, a member session and an auditor changing anything; bad input is a 4xx', async () => {
    const a = await member(1);
    for (const path of ['/ops/api/agents/tree', '/ops/api/agents/contracts']) {
      expect((await call(path)).status).toBe(401);
      expect((await call(path, { token: a.token })).status).toBe(401);
      expect((await call(path, { token: reader })).status).toBe(200);
    }
    expect((await grant('', a.memberId, wages(100))).status).toBe(401);
    expect((await grant(a.token, a.memberId, wages(100))).status).toBe(401);
    const forbidden = await grant(reader, a.memberId, wages(100));
    expect(forbidden.status).toBe(403);
    expect(forbidden.json).toMatchObject({ success: false, code: 'FORBIDDEN' });
    expect((await terminate(a.token, 1, { reason: 'abuse' })).status).toBe(401);
    expect((await terminate(reader, 1, { reason: 'abuse' })).status).toBe(403);

    // bad input
    const bad = await grant(admin, a.memberId, { ...wages(100), extra: 1 });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ success: false, code: 'VALIDATION' });
    expect((await grant(admin, a.memberId, wages(9000))).json).toMatchObject({ success: false, code: 'CONTRACT_RATE_OUT_OF_RANGE' });
    expect((await grant(admin, 99_999_999, wages(100))).status).toBe(404);
    expect((await call('/ops/api/agents/house-contracts', { token: admin, body: { memberId: 'x', terms: wages(1) } })).status).toBe(400);
    expect((await call('/ops/api/agents/tree?rootId=abc', { token: admin })).status).toBe(400);
    expect((await call('/ops/api/agents/tree?rootId=99999999', { token: admin })).status).toBe(404);
    expect((await call('/ops/api/agents/contracts?kind=bogus', { token: admin })).status).toBe(400);
    expect((await call('/ops/api/agents/contracts?pageSize=1000', { token: admin })).status).toBe(400);
    expect((await terminate(admin, 99_999_999, { reason: 'abuse' })).status).toBe(404);
    expect((await terminate(admin, 1, { reason: '' })).status).toBe(400);
    expect((await call('/ops/api/agents/contracts/abc/terminate', { token: admin, body: { reason: 'abuse' } })).status).toBe(404);

    // not a top agent / not an agent
    const b = await member(1, a);
    const p = await member(0);
    const notTop = await grant(admin, b.memberId, wages(100));
    expect(notTop.status).toBe(409);
    expect(notTop.json).toMatchObject({ success: false, code: 'CONTRACT_NOT_TOP_AGENT', message: expect.stringMatching(/not a top agent/) });
    expect((await grant(admin, p.memberId, wages(100))).json).toMatchObject({ success: false, code: 'CONTRACT_DOWNLINE_NOT_AGENT' });
  });

  it('grants a house contract live to the agent, replaces it, terminates it with what hangs below, all audited', async () => {
    const a = await member(1);
    const b = await member(1, a);
    const sa = await connectSocket(t.url, { token: a.token });
    const sb = await connectSocket(t.url, { token: b.token });
    sockets.push(sa, sb);

    const first = await grant(admin, a.memberId, wages(300));
    expect(first.status).toBe(200);
    const h1 = first.json!.value!;
    expect(h1).toMatchObject({ uplineId: null, downlineId: a.memberId, status: 'active', kind: 'dailyWages', terms: { rate: 300 } });
    await waitFor(() => sa.received.find((e) => e.type === 'contract.updated' && (e.payload as Json).contractId === String(h1.id)), 'house contract on the agent socket');
    expect(await auditOf(h1.id)).toMatchObject([{ action: 'agent.house_contract.grant', operator: 'agboss', before: null, after: { status: 'active', rate: 300, memberId: a.memberId } }]);

    // A gives B 250 under it; a new house contract at 200 replaces the first and ends B's (no longer fits).
    const o = await call<TAgentContract>('/wps/agent/contracts', { token: a.token, body: { downlineId: b.memberId, terms: wages(250) } });
    expect(o.status).toBe(200);
    expect((await call(`/wps/agent/contracts/${o.json!.value!.id}/accept`, { token: b.token, body: {} })).status).toBe(200);
    const second = await grant(admin, a.memberId, wages(200));
    expect(second.status).toBe(200);
    const h2 = second.json!.value!;
    const rows = (await t.portal.db.query<{ id: number; status: string; end_reason: string | null }>(
      'SELECT id, status, end_reason FROM agent_contracts WHERE id = ANY($1::bigint[]) ORDER BY id', [[h1.id, o.json!.value!.id, h2.id]])).rows;
    expect(rows).toEqual([
      { id: h1.id, status: 'ended', end_reason: 'replacedByNewContract' },
      { id: o.json!.value!.id, status: 'ended', end_reason: 'rateAboveNewUplineRate' },
      { id: h2.id, status: 'active', end_reason: null },
    ]);
    expect((await auditOf(h2.id))[0]!.before).toMatchObject({ changed: [{ id: h1.id, status: 'ended' }, { id: o.json!.value!.id, status: 'ended' }] });

    // B gets a fresh 150 contract; the operator terminates A's house contract: B's ends with it.
    const o2 = await call<TAgentContract>('/wps/agent/contracts', { token: a.token, body: { downlineId: b.memberId, terms: wages(150) } });
    expect((await call(`/wps/agent/contracts/${o2.json!.value!.id}/accept`, { token: b.token, body: {} })).status).toBe(200);

    // the list filters by account, kind, status and house
    const list = await call<{ list: TAgentContract[]; total: number }>(`/ops/api/agents/contracts?account=${a.account.toUpperCase()}&status=active`, { token: reader });
    expect(list.json!.value!.list.map((c) => c.id)).toEqual([o2.json!.value!.id, h2.id]);
    const houseOnly = await call<{ list: TAgentContract[] }>(`/ops/api/agents/contracts?account=${a.account}&house=true&kind=dailyWages`, { token: reader });
    expect(houseOnly.json!.value!.list.map((c) => c.id)).toEqual([h2.id, h1.id]);
    expect((await call<{ total: number }>(`/ops/api/agents/contracts?account=${a.account}&kind=dividend`, { token: reader })).json!.value!.total).toBe(0);

    const end = await terminate(admin, h2.id, { reason: 'contract breach' });
    expect(end.status).toBe(200);
    expect(end.json!.value!.contract).toMatchObject({ id: h2.id, status: 'terminated', endedBy: null, endReason: 'terminatedByOperator' });
    const stored = (await t.portal.db.query<{ end_reason: string | null }>('SELECT end_reason FROM agent_contracts WHERE id = $1', [h2.id])).rows[0]!;
    expect(stored.end_reason).toBe('terminatedByOperator');
    expect(end.json!.value!.ended).toEqual([{ contractId: o2.json!.value!.id, downlineId: b.memberId, downlineAccount: b.account, rate: 150, reason: 'uplineContractEnded' }]);
    const ev = await waitFor(() => sa.received.find((e) => e.type === 'contract.updated' && (e.payload as Json).contractId === String(h2.id) && (e.payload as Json).status === 'terminated'), 'termination on the agent socket');
    expect(ev.payload).toMatchObject({ endReason: 'terminatedByOperator', downlineId: a.memberId });
    await waitFor(() => sb.received.find((e) => e.type === 'contract.updated' && (e.payload as Json).contractId === String(o2.json!.value!.id) && (e.payload as Json).status === 'ended'), 'the ended downline contract on B');
    expect((await auditOf(h2.id)).map((x) => x.action)).toEqual(['agent.contract.terminate', 'agent.house_contract.grant']);
    expect((await auditOf(h2.id))[0]).toMatchObject({ before: { status: 'active' }, after: { status: 'terminated', reason: 'contract breach', ended: [o2.json!.value!.id] } });
    const trail = (await t.portal.db.query<{ actor: string; to_status: string; reason: string | null }>(
      'SELECT actor, to_status, reason FROM agent_contract_audit WHERE contract_id = $1 ORDER BY id', [h2.id])).rows;
    expect(trail.at(-1)).toEqual({ actor: 'operator', to_status: 'terminated', reason: 'terminatedByOperator' });

    // only a live contract can be terminated
    const again = await terminate(admin, h2.id, { reason: 'contract breach' });
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ success: false, code: 'INVALID_STATE' });
  });

  it('two grants for the same agent at once: both answer, exactly one stays active', async () => {
    // On PGlite transactions already run one at a time; on PostgreSQL the member row lock in grantHouseContractIn orders them.
    const a = await member(1);
    const [x, y] = await Promise.all([grant(admin, a.memberId, wages(100)), grant(admin, a.memberId, wages(120))]);
    expect([x.status, y.status]).toEqual([200, 200]);
    const rows = (await t.portal.db.query<{ status: string }>(`SELECT status FROM agent_contracts WHERE downline_id = $1 AND status = 'active'`, [a.memberId])).rows;
    expect(rows).toHaveLength(1);
  });

  it('shows the tree: top members, drill with breadcrumb, search anywhere, live contracts per row', async () => {
    const a = await member(1);
    const b = await member(1, a);
    const c = await member(1, b);
    await member(0, b);
    const h = (await grant(admin, a.memberId, wages(300))).json!.value!;
    expect((await call(`/wps/agent/contracts/${(await call<TAgentContract>('/wps/agent/contracts', { token: a.token, body: { downlineId: b.memberId, terms: wages(200) } })).json!.value!.id}/accept`, { token: b.token, body: {} })).status).toBe(200);

    const drill = await call<TOpsTreeValue>(`/ops/api/agents/tree?rootId=${b.memberId}`, { token: reader });
    expect(drill.status).toBe(200);
    const v = drill.json!.value!;
    expect(v.path).toEqual([{ id: a.memberId, account: a.account }, { id: b.memberId, account: b.account }]);
    expect(v.root).toMatchObject({ id: b.memberId, isAgent: true, teamSize: 2, directCount: 2, depth: 1, contracts: [{ kind: 'dailyWages', rate: 200, house: false }] });
    expect(v.total).toBe(2);
    expect(v.list[0]).toMatchObject({ id: c.memberId, isAgent: true, teamSize: 0, directCount: 0, contracts: [] });
    expect(v.list[1]).toMatchObject({ isAgent: false, type: 0 });

    const top = await call<TOpsTreeValue>(`/ops/api/agents/tree?rootId=${a.memberId}`, { token: reader });
    expect(top.json!.value!.root).toMatchObject({ teamSize: 3, directCount: 1, depth: 0, contracts: [{ id: h.id, rate: 300, house: true }] });

    const found = await call<TOpsTreeValue>(`/ops/api/agents/tree?search=${c.account.slice(2).toUpperCase()}`, { token: reader });
    expect(found.json!.value!.list.map((r) => r.id)).toEqual([c.memberId]);
    expect(found.json!.value!.list[0]!.path.map((x) => x.id)).toEqual([a.memberId, b.memberId, c.memberId]);

    // a wildcard in the search is text, not a pattern
    expect((await call<TOpsTreeValue>('/ops/api/agents/tree?search=%25', { token: reader })).json!.value!.total).toBe(0);

    const roots = await call<TOpsTreeValue>('/ops/api/agents/tree?pageSize=100', { token: reader });
    expect(roots.status).toBe(200);
    expect(roots.json!.value!.list.every((r) => r.parentId === null && r.depth === 0)).toBe(true);
  });
});

describe('an operator makes a top agent', () => {
  const promote = (token: string, id: number, body: Json = { reason: 'new partner, contract signed' }) =>
    call<{ id: number; account: string; type: number; isAgent: boolean }>(`/ops/api/agents/${id}/top-agent`, { token, body });

  it('turns a player without an upline into a top agent the house can contract with (a production merchant has no other way to its first agent), audited', async () => {
    const p = await member(0);
    // A player cannot hold a contract...
    expect((await grant(admin, p.memberId, wages(100))).json).toMatchObject({ success: false, code: 'CONTRACT_DOWNLINE_NOT_AGENT' });
    // ...until an operator makes it a top agent.
    expect((await promote(reader, p.memberId)).status).toBe(403);
    expect((await promote(p.token, p.memberId)).status).toBe(401);
    expect((await promote(admin, p.memberId, {})).status).toBe(400);
    expect((await promote(admin, 99_999_999)).status).toBe(404);
    const made = await promote(admin, p.memberId);
    expect(made.status, made.text).toBe(200);
    expect(made.json!.value).toEqual({ id: p.memberId, account: p.account, type: 1, isAgent: true });
    const tree = await call<TOpsTreeValue>(`/ops/api/agents/tree?search=${p.account}`, { token: admin });
    expect(tree.json!.value!.list.find((r) => r.id === p.memberId)).toMatchObject({ isAgent: true, parentId: null });
    // Once more: nothing changes, nothing is audited twice.
    expect((await promote(admin, p.memberId)).json!.value).toMatchObject({ type: 1, isAgent: true });
    const audited = await call<{ list: Array<{ action: string; operator: string; before: Json | null; after: Json }> }>(`/ops/api/audit?targetType=member&targetId=${p.memberId}`, { token: admin });
    expect(audited.json!.value!.list.filter((a) => a.action === 'agent.promote')).toEqual([
      expect.objectContaining({ operator: 'agboss', before: { type: 0 }, after: { type: 1, account: p.account, reason: 'new partner, contract signed' } }),
    ]);
    // The house can now contract with it.
    expect((await grant(admin, p.memberId, wages(100))).status).toBe(200);
  });

  it('refuses a member with an upline (its upline sets it as agent) and a disabled one', async () => {
    const a = await member(1);
    const below = await member(0, { account: a.account });
    const r = await promote(admin, below.memberId);
    expect(r.status).toBe(409);
    expect(r.json).toMatchObject({ success: false, code: 'INVALID_STATE' });
    // an agent under another too (it answered 200 as if made a top agent)
    const subAgent = await member(1, { account: a.account });
    expect((await promote(admin, subAgent.memberId)).json).toMatchObject({ success: false, code: 'INVALID_STATE' });
    const off = await member(0);
    expect((await call(`/ops/api/members/${off.memberId}/status`, { token: admin, body: { status: 'disabled', reason: 'test' } })).status).toBe(200);
    expect((await promote(admin, off.memberId)).json).toMatchObject({ success: false, code: 'INVALID_STATE' });
  });
});

describe('operator agent calls with an operator token', () => {
  it('answer junk with a 4xx envelope, never a 500', async () => {
    const bodies = ['{', 'null', '[]', '"x"', '{"a":1}', JSON.stringify({ memberId: 1, terms: { kind: 'dividend', rate: 1e20 } }), JSON.stringify({ reason: 'x'.repeat(5000) }), JSON.stringify({ memberId: -1, terms: null })];
    const queries = ['?pageNo=-1&pageSize=99999', '?a[b]=1', '?rootId=1e400', '?search=', `?search=${'%25'.repeat(300)}`, '?rootId=1&rootId=2', '?account=x&house=maybe', '?status=gone'];
    const statuses: string[] = [];
    for (const path of ['/ops/api/agents/tree', '/ops/api/agents/contracts']) {
      for (const q of queries) {
        const r = await call(path + q, { token: admin });
        if (r.status >= 400) expect(r.json, `${path}${q}`).toMatchObject({ success: false });
        statuses.push(`${path}${q}:${r.status}`);
      }
    }
    for (const path of ['/ops/api/agents/house-contracts', '/ops/api/agents/contracts/1/terminate', '/ops/api/agents/contracts/0/terminate', '/ops/api/agents/contracts/99999999999999999999/terminate']) {
      for (const b of bodies) {
        const r = await call(path, { method: 'POST', body: b, token: admin });
        if (r.status >= 400) expect(r.json, `${path} ${b.slice(0, 30)}`).toMatchObject({ success: false });
        statuses.push(`${path} ${b.slice(0, 20)}:${r.status}`);
      }
    }
    expect(statuses.filter((s) => /:5\d\d$/.test(s))).toEqual([]);
  });
});
