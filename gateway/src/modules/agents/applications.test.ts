import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAgentApplication, TOpsAgentApplication } from '@portal/contracts/api/agent-applications';
import { startTestPortal, type TestPortal } from '../../testing/test-portal.ts';
import { apiOn, testMembers } from '../../testing/test-members.ts';
import { OPS_TOTP_SECRET, opsTotp } from '../../testing/ops-totp.ts';

/**
 * The affiliate application over HTTP: a player applies from the agent page, an operator approves (a top
 * agent now: the agent calls answer) or rejects with a reason (the player may apply again); the player is
 * told by a message; the rules are the server's (players without an upline only, one open application).
 */
let t: TestPortal;
let admin = '';
let reader = '';
beforeAll(async () => {
  t = await startTestPortal();
  await t.portal.cashier.operators.createOperator('DEMO', 'apboss', 'Boss12345678', ['administrator'], { totpSecret: OPS_TOTP_SECRET });
  await t.portal.cashier.operators.createOperator('DEMO', 'apreader', 'Reader12345678', ['support'], { totpSecret: OPS_TOTP_SECRET });
  admin = (await call<{ token: string }>('/ops/api/session/login', { body: { username: 'apboss', password: 'Boss12345678', totp: await opsTotp('apboss', t.url) } })).json!.value!.token;
  reader = (await call<{ token: string }>('/ops/api/session/login', { body: { username: 'apreader', password: 'Reader12345678', totp: await opsTotp('apreader', t.url) } })).json!.value!.token;
});
afterAll(async () => {
  await t.stop();
});

const call = apiOn(() => t.url);
const member = testMembers(() => t.url, { prefix: 'ap' });
const body = { contactName: 'Juan Dela Cruz', contact: '@juanpromo', channel: 'social', audience: 'A Facebook group of 4,000 sabong fans in Cebu' };
const mine = async (token: string) => (await call<{ application: TAgentApplication | null; canApply: boolean }>('/wps/agent/applications/mine', { token })).json!.value!;
const queue = async (status = 'pending') => (await call<{ list: TOpsAgentApplication[]; total: number }>(`/ops/api/agent-applications?status=${status}`, { token: admin })).json!.value!.list;
const decide = (id: string, b: Record<string, unknown>, token = admin) => call<TOpsAgentApplication>(`/ops/api/agent-applications/${id}/decide`, { token, body: b });
const messages = async (token: string) => (await call<{ list: Array<{ kind: string; params: Record<string, string> }> }>('/wps/v2/messages', { token })).json!.value!.list;

describe('affiliate application', () => {
  it('a player applies once; an operator approves it: a top agent, told by a message', async () => {
    const p = await member(0);
    expect(await mine(p.token)).toEqual({ application: null, canApply: true });
    const a = await call<TAgentApplication>('/wps/agent/applications', { token: p.token, body });
    expect(a.status, a.text).toBe(200);
    expect(a.json!.value).toMatchObject({ status: 'pending', contactName: 'Juan Dela Cruz', channel: 'social', reason: null });
    // One open application: a second, and two at once, are refused.
    const again = await call('/wps/agent/applications', { token: p.token, body });
    expect([again.status, again.json?.code]).toEqual([409, 'CONFLICT']);
    expect(await mine(p.token)).toMatchObject({ application: { status: 'pending' }, canApply: false });
    // The agent calls are still closed to it.
    expect((await call('/wps/agent/team/overview', { token: p.token })).json?.code).toBe('NON_AGENT');

    const row = (await queue()).find((x) => x.memberId === p.memberId)!;
    expect(row).toMatchObject({ account: p.account, status: 'pending', contact: '@juanpromo' });
    // Support reads the queue, only an administrator decides.
    expect((await call('/ops/api/agent-applications', { token: reader })).status).toBe(200);
    expect((await decide(row.id, { approve: true }, reader)).status).toBe(403);
    const ok = await decide(row.id, { approve: true });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json!.value).toMatchObject({ status: 'approved', decidedBy: 'apboss' });
    expect((await decide(row.id, { approve: false, reason: 'Changed my mind' })).json?.code).toBe('INVALID_STATE');
    // A top agent now: its agent calls answer, and it can no longer apply.
    expect((await call('/wps/agent/team/overview', { token: p.token })).status).toBe(200);
    expect(await mine(p.token)).toMatchObject({ application: { status: 'approved' }, canApply: false });
    expect((await call('/wps/agent/applications', { token: p.token, body })).json?.code).toBe('INVALID_STATE');
    expect((await messages(p.token))[0]).toMatchObject({ kind: 'agent_application_approved' });
    const audit = await call<{ list: Array<{ action: string }> }>(`/ops/api/audit?targetType=member&targetId=${p.memberId}`, { token: admin });
    expect(audit.json!.value!.list.map((x) => x.action)).toEqual(expect.arrayContaining(['agent.application.approve', 'agent.promote']));
  });

  it('a rejection needs a reason, which the player is told; the player may apply again', async () => {
    const p = await member(0);
    const a = (await call<TAgentApplication>('/wps/agent/applications', { token: p.token, body })).json!.value!;
    const noReason = await decide(a.id, { approve: false });
    expect([noReason.status, noReason.json?.code]).toEqual([400, 'VALIDATION']);
    const no = await decide(a.id, { approve: false, reason: 'Please tell us more about your audience' });
    expect(no.json!.value).toMatchObject({ status: 'rejected', reason: 'Please tell us more about your audience' });
    expect(await mine(p.token)).toMatchObject({ application: { status: 'rejected', reason: 'Please tell us more about your audience' }, canApply: true });
    expect((await messages(p.token))[0]).toMatchObject({ kind: 'agent_application_rejected', params: { reason: 'Please tell us more about your audience' } });
    expect((await call('/wps/agent/applications', { token: p.token, body })).status).toBe(200);
    expect((await queue('rejected')).some((x) => x.id === a.id)).toBe(true);
  });

  it('refuses who may not apply and bad input with a 4xx, nothing stored', async () => {
    const count = async () => Number((await t.portal.db.query<{ n: number }>('SELECT count(*)::int AS n FROM agent_applications')).rows[0]!.n);
    const n = await count();
    const top = await member(1);
    const under = await member(0, top);
    expect((await call('/wps/agent/applications', { token: top.token, body })).json?.code).toBe('INVALID_STATE');
    const u = await call('/wps/agent/applications', { token: under.token, body });
    expect([u.status, u.json?.message]).toEqual([409, 'Your upline agent can make you an agent']);
    expect((await mine(under.token)).canApply).toBe(false);
    expect((await call('/wps/agent/applications', { body })).status).toBe(401);
    const p = await member(0);
    for (const bad of [{ ...body, channel: 'tv' }, { ...body, contactName: 'J' }, { ...body, audience: 'short' }, { ...body, audience: 'x'.repeat(501) }, { ...body, extra: 1 }, {}, { ...body, contact: '\u200b\u200b\u200b' }]) {
      const r = await call('/wps/agent/applications', { token: p.token, body: bad });
      expect([JSON.stringify(bad).slice(0, 40), r.status, r.json?.code]).toEqual([JSON.stringify(bad).slice(0, 40), 400, 'VALIDATION']);
    }
    expect(await count()).toBe(n);
    expect((await call('/ops/api/agent-applications?status=bogus', { token: admin })).status).toBe(400);
    expect((await decide('99999999', { approve: true })).status).toBe(404);
    expect((await decide('abc', { approve: true })).status).toBe(404);
  });
});
