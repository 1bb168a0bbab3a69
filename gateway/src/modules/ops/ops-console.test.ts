import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, connectSocket, startTestPortal, waitFor, type TestPortal, type TestSocket } from '../../testing/test-portal.ts';
import { apiOn } from '../../testing/test-members.ts';
import { OPS_TOTP_SECRET, totpNow, opsTotp } from '../../testing/ops-totp.ts';
import { generate } from 'otplib';
import { csvCell } from './audit-trail.ts';
import { connectCatalogueVendors } from '../../testing/catalogue-vendors.ts';

let t: TestPortal;
let admin = '';
const sockets: TestSocket[] = [];
const call = apiOn(() => t.url);
beforeAll(async () => {
  t = await startTestPortal();
  // The demo's providers connected as npm start connects them: the hot games of the catalogue calls are theirs.
  await connectCatalogueVendors(t);
  await t.portal.cashier.operators.createOperator('DEMO', 'console_admin', 'Console12345', ['administrator'], { totpSecret: OPS_TOTP_SECRET });
  admin = (await call<{ token: string }>('/ops/api/session/login', { body: { username: 'console_admin', password: 'Console12345', totp: await opsTotp('console_admin', t.url) } })).json!.value!.token;
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t.stop();
});

describe('operator second factor (TOTP)', () => {
  it('enrols after the password change, then asks a code at each login', async () => {
    const first = await call<{ token: string; totpEnrolled: boolean }>('/ops/api/session/login', { body: { username: 'ops01', password: '{secret}' } });
    expect(first.json?.value).toMatchObject({ totpEnrolled: false, mustChangePassword: true });
    const token = first.json!.value!.token;
    // the password first: enrolment is refused before it
    expect((await call('/ops/api/session/totp/setup', { token, body: {} })).json?.code).toBe('PASSWORD_CHANGE_REQUIRED');
    expect((await call('/ops/api/session/password', { token, body: { oldPassword: '{secret}', newPassword: 'Ops01-totp-pass-1', confirmNewPassword: 'Ops01-totp-pass-1' } })).status).toBe(200);
    expect((await call('/ops/api/deposits', { token })).json?.code).toBe('TOTP_ENROLMENT_REQUIRED');
    expect((await call('/ops/api/session/totp/confirm', { token, body: { code: '123456' } })).json?.code).toBe('INVALID_STATE');
    const setup = await call<{ secret: string; otpauthUrl: string; qr: string }>('/ops/api/session/totp/setup', { token, body: {} });
    expect(setup.status).toBe(200);
    const { secret, otpauthUrl, qr } = setup.json!.value!;
    expect(otpauthUrl).toContain(`secret=${secret}`);
    expect(qr).toMatch(/^data:image\/png;base64,/);
    expect((await call('/ops/api/session/totp/confirm', { token, body: { code: 'abc' } })).status).toBe(400);
    const wrong = (await generate({ secret })) === '000000' ? '111111' : '000000';
    expect((await call('/ops/api/session/totp/confirm', { token, body: { code: wrong } })).json?.code).toBe('TOTP_INVALID');
    const confirmCode = await totpNow(secret);
    expect((await call('/ops/api/session/totp/confirm', { token, body: { code: confirmCode } })).status).toBe(200);
    expect((await call('/ops/api/deposits', { token })).status).toBe(200);
    expect((await call('/ops/api/session/totp/setup', { token, body: {} })).json?.code).toBe('INVALID_STATE');

    // next login: password alone is not enough, a wrong code neither
    const noCode = await call('/ops/api/session/login', { body: { username: 'ops01', password: 'Ops01-totp-pass-1' } });
    expect(noCode.status).toBe(401);
    expect(noCode.json).toMatchObject({ success: false, code: 'TOTP_REQUIRED' });
    expect(noCode.json).not.toHaveProperty('value');
    expect((await call('/ops/api/session/login', { body: { username: 'ops01', password: 'Ops01-totp-pass-1', totp: wrong } })).json?.code).toBe('TOTP_INVALID');
    // a code is good once: the one that confirmed the enrolment does not sign in again
    expect((await call('/ops/api/session/login', { body: { username: 'ops01', password: 'Ops01-totp-pass-1', totp: confirmCode } })).json?.code).toBe('TOTP_INVALID');
    const ok = await call<{ token: string; totpEnrolled: boolean }>('/ops/api/session/login', { body: { username: 'ops01', password: 'Ops01-totp-pass-1', totp: await totpNow(secret) } });
    expect(ok.json?.value?.totpEnrolled).toBe(true);
    expect((await call('/ops/api/deposits', { token: ok.json!.value!.token })).status).toBe(200);
  });
});

describe('operator login lock', () => {
  it('judges at most five failures sent at once and does not confirm the right password past them', async () => {
    await t.portal.cashier.operators.createOperator('DEMO', 'lock_racer', 'Racer12345678', ['content'], { totpSecret: OPS_TOTP_SECRET });
    // Counted, judged, then recorded, 29 wrong guesses sent at once were all judged and the right one
    // was confirmed by TOTP_REQUIRED; now the sixth failure recorded answers locked, and so does the
    // right password once five are recorded.
    const guesses = Array.from({ length: 12 }, (_, i) => call('/ops/api/session/login', { body: { username: 'lock_racer', password: `Wrong-guess-${i}` } }));
    const codes = (await Promise.all(guesses)).map((r) => r.json?.code).sort();
    expect(codes).toEqual([...Array(5).fill('INVALID_CREDENTIALS'), ...Array(7).fill('LOGIN_LOCKED')]);
    expect((await call('/ops/api/session/login', { body: { username: 'lock_racer', password: 'Racer12345678' } })).json?.code).toBe('LOGIN_LOCKED');
  });
  it('a wrong old password on a password change is a failed login: five lock it, the right one included', async () => {
    await t.portal.cashier.operators.createOperator('DEMO', 'pw_guesser', 'Guesser12345', ['content'], { totpSecret: OPS_TOTP_SECRET });
    const token = (await call<{ token: string }>('/ops/api/session/login', { body: { username: 'pw_guesser', password: 'Guesser12345', totp: await opsTotp('pw_guesser', t.url) } })).json!.value!.token;
    for (let i = 0; i < 5; i++) {
      expect((await call('/ops/api/session/password', { token, body: { oldPassword: `Wrong-${i}-x1`, newPassword: 'Brand-new-1', confirmNewPassword: 'Brand-new-1' } })).json?.code).toBe('OLD_PASSWORD_WRONG');
    }
    const late = await call('/ops/api/session/password', { token, body: { oldPassword: 'Guesser12345', newPassword: 'Brand-new-1', confirmNewPassword: 'Brand-new-1' } });
    expect([late.status, late.json?.code]).toEqual([429, 'LOGIN_LOCKED']);
  });
});

describe('administrators manage operators', () => {
  it('creates with a one-time password, sets roles, disables (its sessions end); cannot disable itself', async () => {
    expect((await call('/ops/api/operators', { token: admin, body: { username: 'Bad Name!', roles: ['finance'] } })).status).toBe(400);
    expect((await call('/ops/api/operators', { token: admin, body: { username: 'newcash', roles: ['bank'] } })).status).toBe(400);
    const made = await call<{ operator: { id: number; roles: string[] }; password: string }>('/ops/api/operators', { token: admin, body: { username: 'newcash', roles: ['finance'] } });
    expect(made.status, made.text).toBe(200);
    expect((await call('/ops/api/operators', { token: admin, body: { username: 'newcash', roles: ['finance'] } })).json?.code).toBe('ACCOUNT_EXISTS');
    const { operator, password } = made.json!.value!;
    const login = await call<{ token: string; mustChangePassword: boolean }>('/ops/api/session/login', { body: { username: 'newcash', password } });
    expect(login.json?.value?.mustChangePassword).toBe(true);
    const roles = await call<{ roles: string[] }>(`/ops/api/operators/${operator.id}`, { token: admin, body: { roles: ['finance', 'risk'] } });
    expect(roles.json?.value?.roles).toEqual(['finance', 'risk']);
    // a role change ends the operator's sessions (it signs in again with its new roles)
    expect((await call('/ops/api/session', { token: login.json!.value!.token })).status).toBe(401);
    expect((await call(`/ops/api/operators/${operator.id}`, { token: admin, body: { status: 'disabled' } })).json).toMatchObject({ value: { status: 'disabled' } });
    expect((await call('/ops/api/session/login', { body: { username: 'newcash', password } })).json?.code).toBe('INVALID_CREDENTIALS');
    const me = (await call<{ list: Array<{ id: number; username: string }> }>('/ops/api/operators', { token: admin })).json!.value!.list.find((o) => o.username === 'console_admin')!;
    expect((await call(`/ops/api/operators/${me.id}`, { token: admin, body: { status: 'disabled' } })).json?.code).toBe('INVALID_STATE');
    expect((await call(`/ops/api/operators/${me.id}`, { token: admin, body: {} })).status).toBe(400);
    expect((await call('/ops/api/operators/999999', { token: admin, body: { status: 'active' } })).status).toBe(404);
  });
});

describe('site settings live', () => {
  it('maintenance on and off reaches open sockets and the status call; audited; bad input is 4xx', async () => {
    const s = (await api<{ token: string }>(t.url, '/wps/dev/sessions', { body: { account: 'siteplayer1' } })).json!.value!;
    const sock = await connectSocket(t.url, { token: s.token });
    sockets.push(sock);
    const on = await call<{ maintenance: boolean }>('/ops/api/site', { token: admin, method: 'PUT', body: { maintenance: true, maintenanceMessage: 'Back at 5' } });
    expect(on.json?.value?.maintenance).toBe(true);
    await waitFor(() => sock.received.find((e) => e.type === 'system.maintenance' && (e.payload as { systemStatus: number }).systemStatus === 1), 'maintenance on');
    const changed = await waitFor(() => sock.received.find((e) => e.type === 'system.changed'), 'system.changed');
    expect(changed.payload).toEqual({ parts: ['maintenance'] });
    expect((await call('/wps/system/status')).json).toMatchObject({ value: { systemStatus: 1, message: 'Back at 5' } });
    expect((await call('/wps/member/info', { token: s.token })).json?.code).toBe('MAINTENANCE');

    await call('/ops/api/site', { token: admin, method: 'PUT', body: { maintenance: false } });
    await waitFor(() => sock.received.find((e) => e.type === 'system.maintenance' && (e.payload as { systemStatus: number }).systemStatus === 0), 'maintenance off');
    expect((await call('/wps/system/status')).json).toMatchObject({ value: { systemStatus: 0 } });

    const audit = await call<{ list: Array<{ action: string; before: unknown; after: unknown }> }>('/ops/api/audit?action=site.update&actor=console_admin', { token: admin });
    // a range whose start is after its end is a 400, not an empty list
    const reversed = await call('/ops/api/audit?from=2026-12-31T00:00:00Z&to=2026-01-01T00:00:00Z', { token: admin });
    expect([reversed.status, reversed.json?.code]).toEqual([400, 'VALIDATION']);
    expect(audit.json!.value!.list.slice(0, 2).map((a) => a.after)).toEqual([
      { maintenance: false, maintenanceMessage: 'Back at 5' },
      { maintenance: true, maintenanceMessage: 'Back at 5' },
    ]);

    for (const body of [{ blockedIps: ['300.1.1.1'] }, { blockedIps: ['10.0.0.0/33'] }, { blockedRegions: ['PHL'] }, { modules: { NOPE3: true } }, { maintenance: 'yes' }, { security: { captchaAfterFailures: -1 } }]) {
      const r = await call('/ops/api/site', { token: admin, method: 'PUT', body });
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('module flags and blocked addresses change at once; a blocked address gets the region page', async () => {
    const flags = await call<{ modules: Record<string, boolean> }>('/ops/api/site', { token: admin, method: 'PUT', body: { modules: { FREEPLAY3: false } } });
    expect(flags.json?.value?.modules.FREEPLAY3).toBe(false);
    expect((await call<{ modules: Record<string, boolean> }>('/wps/system/whitelabel')).json?.value?.modules.FREEPLAY3).toBe(false);
    await call('/ops/api/site', { token: admin, method: 'PUT', body: { modules: { FREEPLAY3: true } } });
    // this test talks from 127.0.0.1 (or ::1)
    await call('/ops/api/site', { token: admin, method: 'PUT', body: { blockedIps: ['127.0.0.0/8', '::1'] } });
    expect((await call('/wps/system/status')).json).toMatchObject({ value: { systemStatus: 2 } });
    // the console itself is not closed by the block list
    expect((await call('/ops/api/site', { token: admin, method: 'PUT', body: { blockedIps: [] } })).status).toBe(200);
    expect((await call('/wps/system/status')).json).toMatchObject({ value: { systemStatus: 0 } });
  });
});

describe('vendors and games from the console', () => {
  it('maintenance, order and hot games show in the catalogue calls; audited; bad input is 4xx', async () => {
    type G = { id: number; gameCode: string; hotRank: number | null; maintenance: boolean };
    type Hot = { list: Array<{ gameCode: string; maintenance: boolean }> };
    const hot = (await call<{ list: G[] }>('/ops/api/games?hot=true&pageSize=5', { token: admin })).json!.value!.list;
    expect(hot.length).toBeGreaterThan(1);
    const [first, second] = hot as [G, G];
    // the second hot game moves to the end (rank 1000), the first one leaves the hot list and goes into maintenance
    const before = (await call<Hot>('/wps/relay/GCSGAME_hotGamesV2')).json!.value!.list.map((g) => g.gameCode);
    expect(before.indexOf(second.gameCode)).toBeLessThan(before.length - 1);
    expect((await call(`/ops/api/games/${second.id}`, { token: admin, body: { hotRank: 1000 } })).status).toBe(200);
    const off = await call<G>(`/ops/api/games/${first.id}`, { token: admin, body: { hotRank: null, maintenance: true } });
    expect(off.json?.value).toMatchObject({ hotRank: null, maintenance: true });
    const shown = (await call<Hot>('/wps/relay/GCSGAME_hotGamesV2')).json!.value!.list;
    expect(shown.at(-1)?.gameCode).toBe(second.gameCode);
    expect(shown.some((g) => g.gameCode === first.gameCode)).toBe(false);
    const searched = (await call<{ list: G[] }>(`/ops/api/games?search=${encodeURIComponent(first.gameCode)}`, { token: admin })).json!.value!.list;
    expect(searched.find((g) => g.id === first.id)?.maintenance).toBe(true);

    const vendors = (await call<{ list: Array<{ vassalage: string; gameType: string; maintenance: boolean }> }>('/ops/api/vendors', { token: admin })).json!.value!.list;
    // a provider with a game on the hot list (the house slots)
    const hotNow = (await call<{ list: Array<{ vassalage: string; gameType: string }> }>('/wps/relay/GCSGAME_hotGamesV2')).json!.value!.list;
    const v = vendors.find((x) => hotNow.some((g) => g.vassalage === x.vassalage && g.gameType === x.gameType))!;
    expect((await call('/ops/api/vendors', { token: admin, body: { vassalage: v.vassalage, gameType: v.gameType, maintenance: true, sort: 0 } })).json).toMatchObject({ value: { maintenance: true } });
    const listed = await call<{ vendors: Array<{ vassalage: string; maintenance: boolean }> }>(`/wps/relay/GCSGAME_getVassGameType?gameType=${v.gameType}`);
    expect(listed.json!.value!.vendors.find((x) => x.vassalage === v.vassalage)?.maintenance).toBe(true);
    // ... and so does each of its games in the lists a player sees, as a launch answers (GAME_MAINTENANCE)
    type Listed = { games: Array<{ vassalage: string; gameType: string; maintenance: boolean }> };
    const gamesOf = async () => (await call<Listed>(`/wps/relay/GCSGAME_gameList?gameType=${v.gameType}&vassalage=${v.vassalage}&pageNo=1&pageSize=50`)).json!.value!.games;
    const inMaintenance = await gamesOf();
    expect(inMaintenance.length).toBeGreaterThan(0);
    expect(inMaintenance.every((g) => g.maintenance)).toBe(true);
    const hotOfVendor = (await call<{ list: Array<{ gameCode: string; maintenance: boolean; vassalage: string; gameType: string }> }>('/wps/relay/GCSGAME_hotGamesV2')).json!.value!.list
      .filter((g) => g.vassalage === v.vassalage && g.gameType === v.gameType);
    expect(hotOfVendor.length).toBeGreaterThan(0);
    expect(hotOfVendor.every((g) => g.maintenance)).toBe(true);
    await call('/ops/api/vendors', { token: admin, body: { vassalage: v.vassalage, gameType: v.gameType, maintenance: false } });
    expect((await gamesOf()).some((g) => !g.maintenance)).toBe(true);

    const audit = await call<{ list: Array<{ action: string; targetId: string; after: unknown }> }>(`/ops/api/audit?action=game.update&targetId=${first.id}`, { token: admin });
    expect(audit.json!.value!.list[0]?.after).toEqual({ maintenance: true, sort: expect.any(Number), hotRank: null });
    for (const [path, body] of [[`/ops/api/games/${first.id}`, {}], [`/ops/api/games/${first.id}`, { hotRank: -1 }], ['/ops/api/games/999999', { sort: 1 }], ['/ops/api/vendors', { vassalage: 'NOPE', gameType: 'SLOT', sort: 1 }], ['/ops/api/vendors', { vassalage: v.vassalage }]] as const) {
      const r = await call(path, { token: admin, body });
      expect([400, 404], `${path} ${JSON.stringify(body)}`).toContain(r.status);
    }
  });
});

describe('audit trail search and CSV export', () => {
  it('escapes CSV cells and neutralises formulas', () => {
    expect(csvCell('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@x')).toBe("'@x");
    expect(csvCell('a,"b"')).toBe('"a,""b"""');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell(null)).toBe('');
    expect(csvCell({ a: 1 })).toBe('"{""a"":1}"');
  });

  it('exports the filtered trail (actor, action, date range) as CSV; bad filters are 400', async () => {
    await call('/ops/api/site', { token: admin, method: 'PUT', body: { maintenanceMessage: '=HYPERLINK("http://evil")' } });
    const from = new Date(Date.now() - 3600_000).toISOString();
    const res = await fetch(`${t.url}/ops/api/audit/export?actor=console_admin&action=site.update&from=${encodeURIComponent(from)}`, { headers: { authorization: `Bearer ${admin}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    const text = await res.text();
    const lines = text.trim().split('\r\n');
    expect(lines[0]).toBe('id,at,operator,action,target_type,target_id,before,after');
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.slice(1).every((l) => l.includes(',console_admin,site.update,merchant,DEMO,'))).toBe(true);
    // the JSON cell holding the formula is quoted; no cell starts with a bare =
    expect(text).toContain('""maintenanceMessage"":""=HYPERLINK(\\""http://evil\\"")""');
    expect(text.split(/[,\n]/).some((c) => c.startsWith('='))).toBe(false);
    const future = new Date(Date.now() + 3600_000).toISOString();
    const none = await fetch(`${t.url}/ops/api/audit/export?from=${encodeURIComponent(future)}`, { headers: { authorization: `Bearer ${admin}` } });
    expect((await none.text()).trim().split('\r\n')).toHaveLength(1);
    expect((await fetch(`${t.url}/ops/api/audit/export?from=yesterday`, { headers: { authorization: `Bearer ${admin}` } })).status).toBe(400);
    expect((await call('/ops/api/audit?to=2026-13-01', { token: admin })).status).toBe(400);
    expect((await call(`/ops/api/audit?actor=console_admin&to=${encodeURIComponent(from)}`, { token: admin })).json).toMatchObject({ value: { total: 0 } });
  });
});
