import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolOperatorTotp } from '../../testing/ops-totp.ts';
import { api, connectSocket, startTestPortal, type TestPortal } from '../../testing/test-portal.ts';

let t: TestPortal;
let opsToken = '';
beforeAll(async () => {
  t = await startTestPortal();
  const login = await api<{ token: string }>(t.url, '/ops/api/session/login', { body: { username: 'ops01', password: '{secret}' } });
  opsToken = login.json!.value!.token;
  const changed = await api(t.url, '/ops/api/session/password', { token: opsToken, body: { oldPassword: '{secret}', newPassword: 'Ops01-new-pass-9', confirmNewPassword: 'Ops01-new-pass-9' } });
  expect(changed.status).toBe(200);
  await enrolOperatorTotp(t.url, opsToken);
});
afterAll(async () => {
  await t.stop();
});

describe('an operator disables and re-enables a member', () => {
  it('ends sessions and sockets at once, writes the audit trail, refuses members and bad input', async () => {
    const s = (await api<{ memberId: number; token: string }>(t.url, '/wps/dev/sessions', { body: { account: 'opsstatus1' } })).json!.value!;
    const sock = await connectSocket(t.url, { token: s.token });
    const closed = new Promise((resolve) => sock.once('disconnect', resolve));

    // a member token is not an operator token; bad input is a 4xx envelope
    expect((await api(t.url, `/ops/api/members/${s.memberId}/status`, { token: s.token, body: { status: 'disabled', reason: 'x' } })).status).toBe(401);
    expect((await api(t.url, `/ops/api/members/${s.memberId}/status`, { token: opsToken, body: { status: 'gone', reason: 'x' } })).status).toBe(400);
    expect((await api(t.url, `/ops/api/members/${s.memberId}/status`, { token: opsToken, body: { status: 'disabled' } })).status).toBe(400);
    expect((await api(t.url, '/ops/api/members/999999/status', { token: opsToken, body: { status: 'disabled', reason: 'x' } })).status).toBe(404);

    const off = await api<{ status: string }>(t.url, `/ops/api/members/${s.memberId}/status`, { token: opsToken, body: { status: 'disabled', reason: 'fraud review' } });
    expect(off.json?.value?.status).toBe('disabled');
    await closed;
    expect((await api(t.url, '/wps/member/info', { token: s.token })).status).toBe(401);

    const on = await api<{ status: string }>(t.url, `/ops/api/members/${s.memberId}/status`, { token: opsToken, body: { status: 'active', reason: 'cleared' } });
    expect(on.json?.value?.status).toBe('active');
    // the old session stays revoked: disabling ended it for good
    expect((await api(t.url, '/wps/member/info', { token: s.token })).status).toBe(401);

    const audit = await api<{ list: Array<{ action: string; targetId: string }> }>(t.url, `/ops/api/audit?targetType=member&targetId=${s.memberId}`, { token: opsToken });
    expect(audit.json?.value?.list.map((a) => a.action)).toEqual(['member.enable', 'member.disable']);
  });
});
