import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestPortal, type TestPortal } from '../testing/test-portal.ts';
import { OPS_TOTP_SECRET, opsTotp } from '../testing/ops-totp.ts';
import { runResetOperator } from './operator-reset.ts';

/** npm run ops:reset-operator: a locked-out operator (forgotten password, lost authenticator) gets back in, and only by this command. */
let t: TestPortal;
beforeAll(async () => {
  t = await startTestPortal();
});
afterAll(async () => {
  await t.stop();
});

const login = (username: string, password: string, totp?: string) =>
  api<{ token: string; mustChangePassword?: boolean; totpEnrolled?: boolean }>(t.url, '/ops/api/session/login', { body: { username, password, ...(totp ? { totp } : {}) } });

describe('ops:reset-operator', () => {
  it('sets a one-time password, ends sessions, clears the lock and (asked) the authenticator, audited', async () => {
    await t.portal.cashier.operators.createOperator('DEMO', 'reset_me', 'Reset12345678', ['support'], { totpSecret: OPS_TOTP_SECRET });
    const before = await login('reset_me', 'Reset12345678', await opsTotp('reset_me', t.url));
    expect(before.status).toBe(200);
    const oldToken = before.json!.value!.token;
    // Five wrong passwords lock the name, even for the right password.
    for (let i = 0; i < 5; i++) expect((await login('reset_me', 'Wrong12345678')).status).toBe(401);
    expect((await login('reset_me', 'Reset12345678', await opsTotp('reset_me', t.url))).json?.code).toBe('LOGIN_LOCKED');

    const lines: string[] = [];
    const { password } = await runResetOperator(['--merchant', 'DEMO', '--username', 'reset_me', '--reset-authenticator'], { db: t.portal.db, print: (l) => lines.push(l) });
    expect(password).toMatch(/^[A-Za-z2-9]{20}$/);
    expect(lines.join('\n')).toContain(`one-time password: ${password}`);
    expect(lines.join('\n')).toContain('1 session(s) ended');
    expect(lines.join('\n')).toContain('authenticator removed');

    // The old session is gone, the old password no longer works, the new one signs in (no code: the authenticator was removed) and must be changed.
    expect((await api(t.url, '/ops/api/session', { method: 'GET', token: oldToken })).status).toBe(401);
    expect((await login('reset_me', 'Reset12345678')).status).toBe(401);
    const after = await login('reset_me', password);
    expect(after.status).toBe(200);
    expect(after.json!.value).toMatchObject({ mustChangePassword: true, totpEnrolled: false });

    const audit = await t.portal.db.query<{ action: string; after: { via: string; authenticator: boolean } }>(
      `SELECT action, after FROM audit_log WHERE action = 'operator.reset' AND target_id = (SELECT id::text FROM operators WHERE username = 'reset_me')`);
    expect(audit.rows).toEqual([{ action: 'operator.reset', after: expect.objectContaining({ via: 'cli', authenticator: false, mustChangePassword: true }) }]);
  });

  it('refuses an unknown operator and a weak chosen password', async () => {
    await expect(runResetOperator(['--merchant', 'DEMO', '--username', 'nobody_here'], { db: t.portal.db, print: () => undefined })).rejects.toThrow(/does not exist/);
    await expect(runResetOperator(['--merchant', 'DEMO', '--username', 'ops01', '--password-stdin'], { db: t.portal.db, print: () => undefined, readStdin: async () => 'short' }))
      .rejects.toThrow(/10 to 128/);
    await expect(runResetOperator(['--merchant', 'DEMO'], { db: t.portal.db })).rejects.toThrow(/usage/);
  });
});
