import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { api, startTestPortal, type TestPortal } from '../../testing/test-portal.ts';
import { TEST_MEMBER_PASSWORD, testMembers } from '../../testing/test-members.ts';
import { OPS_TOTP_SECRET, opsTotp } from '../../testing/ops-totp.ts';
import { checkLedger, transfer } from '../wallet/ledger.ts';
import { isMarketable, marketableSql } from './marketing.ts';

/**
 * Responsible gaming, second part: restricted persons (registration and the re-check job), family
 * exclusion, the restricted session of an excluded player, the deposit limit under concurrency,
 * single-use operator codes, marketing suppression.
 */
let t: TestPortal;
const member = testMembers(() => t.url, { prefix: 'rgp' });
let risk = '';
let support = '';
let ipN = 1;
const freshIp = () => `10.9.${Math.floor(ipN / 250)}.${(ipN++ % 250) + 1}`;

async function opsLogin(username: string, roles: Array<'risk' | 'support' | 'administrator'>) {
  await t.portal.cashier.operators.createOperator('DEMO', username, 'Rgp12345678', roles, { totpSecret: OPS_TOTP_SECRET });
  const r = await api<{ token: string }>(t.url, '/ops/api/session/login', { body: { username, password: 'Rgp12345678', totp: await opsTotp(username, t.url) } });
  expect(r.status, r.text).toBe(200);
  return r.json!.value!.token;
}

beforeAll(async () => {
  t = await startTestPortal({ TRUST_PROXY: '1' });
  await api(t.url, '/wps/dev/merchant', { body: { security: { botCheck: false, captchaAfterFailures: 100 } } });
  risk = await opsLogin('rgp_risk', ['risk']);
  support = await opsLogin('rgp_support', ['support']);
});
afterAll(async () => {
  expect(await checkLedger(t.portal.db)).toEqual([]);
  await t.stop();
});

async function captcha() {
  const c = (await api<{ captchaKey: string }>(t.url, '/wps/captcha')).json!.value!;
  const a = (await api<{ answer: string }>(t.url, `/wps/dev/captcha/${c.captchaKey}`)).json!.value!;
  return { captchaKey: c.captchaKey, captcha: a.answer };
}
async function register(fields: Record<string, unknown>) {
  return api<{ token?: string; memberId: number }>(t.url, '/wps/member/register', {
    method: 'PUT', headers: { 'x-forwarded-for': freshIp() },
    body: { password: 'abc12345', confirmPassword: 'abc12345', termsAccepted: true, ageConfirmed: true, login: true, ...(await captcha()), ...fields },
  });
}
const account = () => `rgp${randomBytes(4).toString('hex')}`;
async function fund(memberId: number, amount: number) {
  await t.portal.db.tx((tx) => transfer(tx, { merchant: 'DEMO', currency: 'PHP', key: `rgp-fund:${memberId}:${randomBytes(4).toString('hex')}`, kind: 'deposit', amount, debit: { system: 'deposit' }, credit: { member: memberId } }));
}
const login = (username: string) => api<{ token: string; rgExclusion: { kind: string; until: string | null } | null }>(t.url, '/wps/session/login', { body: { username, password: TEST_MEMBER_PASSWORD } });

describe('restricted persons (Philippine rules)', () => {
  it('registration in the Philippines requires the full name and birth date, and checks the age against it', async () => {
    const settings = await api<{ fields: Array<{ field: string; required: boolean }>; minAge: number }>(t.url, '/wps/system/setting/register');
    const req = (f: string) => settings.json!.value!.fields.find((x) => x.field === f)?.required;
    expect(req('payeeName')).toBe(true);
    expect(req('birthday')).toBe(true);
    const missing = await register({ username: account() });
    expect(missing.status).toBe(400);
    expect((missing.json as { details?: Array<{ path: string }> }).details?.map((d) => d.path)).toEqual(expect.arrayContaining(['payeeName', 'birthday']));
    const young = new Date(Date.now() - 20 * 365.25 * 86_400_000).toISOString().slice(0, 10);
    expect((await register({ username: account(), payeeName: 'Young Person', birthday: young })).json?.code).toBe('UNDERAGE');
  });

  it('an operator imports a list; a listed person cannot register (RESTRICTED_PERSON, nothing about the list); bad files are refused whole', async () => {
    const bad = await api<unknown>(t.url, '/ops/api/rg/restricted/import', { token: risk, body: { csv: 'full_name,birth_date,category\nJuan Cruz,1980-02-30,government_official\nAna,1970-01-01,astronaut\n' } });
    expect(bad.status).toBe(400);
    expect((bad.json as { details?: Array<{ path: string }> }).details?.map((d) => d.path)).toEqual(['line 2', 'line 3']);
    expect((await api(t.url, '/ops/api/rg/restricted/import', { token: support, body: { csv: 'x' } })).status).toBe(403);
    const csv = 'full_name,birth_date,category,id_number\n"Dela Cruz, Juan",1980-02-01,government official,GOV-1\nMaría Santos,1985-07-15,armed_forces_police,\nPedro Reyes,1979-12-31,national_exclusion,\n';
    const imp = await api<{ id: number; rows: number }>(t.url, '/ops/api/rg/restricted/import', { token: risk, body: { csv } });
    expect(imp.status, imp.text).toBe(200);
    expect(imp.json?.value?.rows).toBe(3);
    // the same person written another way (order, case, accents, punctuation) is refused
    const refused = await register({ username: account(), payeeName: 'juan DELA cruz', birthday: '1980-02-01' });
    expect(refused.status).toBe(403);
    expect(refused.json?.code).toBe('RESTRICTED_PERSON');
    expect(JSON.stringify(refused.json)).not.toMatch(/government|GOV-1|categor/i);
    expect((await register({ username: account(), payeeName: 'Maria Santos', birthday: '1985-07-15' })).json?.code).toBe('RESTRICTED_PERSON');
    // another birth date is another person
    const ok = await register({ username: account(), payeeName: 'Juan Dela Cruz', birthday: '1980-02-02' });
    expect(ok.status, ok.text).toBe(200);
    const summary = await api<{ current: { rows: number }; byCategory: Record<string, number> }>(t.url, '/ops/api/rg/restricted', { token: support });
    expect(summary.json?.value).toMatchObject({ current: { rows: 3 }, byCategory: { government_official: 1, armed_forces_police: 1, national_exclusion: 1 } });
    const audit = await t.portal.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'rg.restricted.refused'`);
    expect(audit.rows[0]!.n).toBe(2);
  });

  it('a new list re-checks existing members on the job queue: matches are excluded, audited and listed for operators', async () => {
    const name = `Lorna ${[...randomBytes(5)].map((b) => String.fromCharCode(97 + (b % 26))).join('')} Villanueva`;
    const u = account();
    const reg = await register({ username: u, payeeName: name, birthday: '1990-03-04' });
    expect(reg.status, reg.text).toBe(200);
    const memberId = reg.json!.value!.memberId;
    const imp = await api<{ id: number }>(t.url, '/ops/api/rg/restricted/import', { token: risk, body: { csv: `${name.toUpperCase()},1990-03-04,licensee_employee\nSomeone Else,1950-01-01,national_exclusion\n` } });
    expect(imp.status, imp.text).toBe(200);
    const importId = imp.json!.value!.id;
    const state = await t.portal.jobs.runNow('rg.restricted.recheck', `DEMO:${importId}`);
    expect(state.state).toBe('done');
    const matches = await api<{ list: Array<{ memberId: number; category: string; excluded: boolean }> }>(t.url, '/ops/api/rg/restricted/matches', { token: support });
    expect(matches.json?.value?.list.find((m) => m.memberId === memberId)).toMatchObject({ category: 'licensee_employee', excluded: true });
    const l = await api<{ rgExclusion: { kind: string; until: null } }>(t.url, '/wps/session/login', { body: { username: u, password: 'abc12345' } });
    expect(l.json?.value?.rgExclusion).toEqual({ kind: 'restricted', until: null });
    const audit = await t.portal.db.query<{ action: string }>(`SELECT action FROM audit_log WHERE target_type = 'member' AND target_id = $1 ORDER BY id`, [String(memberId)]);
    expect(audit.rows.map((a) => a.action)).toEqual(['rg.exclusion.start', 'rg.restricted.match']);
    // the job is idempotent: a rerun of the re-check adds nothing
    expect(await t.portal.rgRestricted.recheck('DEMO', importId)).toBe(0);
    const summary = await api<{ current: { id: number; checkedAt: string | null; matched: number } }>(t.url, '/ops/api/rg/restricted', { token: risk });
    expect(summary.json?.value?.current).toMatchObject({ id: importId, matched: 1 });
    expect(summary.json?.value?.current.checkedAt).toBeTruthy();
  });
  it('a newer list that no longer names a member lifts the exclusion a list match started, and only that one; audited and shown to operators', async () => {
    const nameOf = () => `Rhea ${[...randomBytes(5)].map((b) => String.fromCharCode(97 + (b % 26))).join('')} Bautista`;
    const [dropped, kept, selfEx, opEx] = [nameOf(), nameOf(), nameOf(), nameOf()];
    const ids: Record<string, number> = {};
    const accounts: Record<string, string> = {};
    for (const [k, n] of Object.entries({ dropped, kept, selfEx, opEx })) {
      accounts[k] = account();
      const reg = await register({ username: accounts[k], payeeName: n, birthday: '1988-08-08' });
      expect(reg.status, reg.text).toBe(200);
      ids[k] = reg.json!.value!.memberId;
    }
    // The two imports get the numbers 10^k - 1 and 10^k: '99' sorts above '100' as text, and the newest list must still be the one that decides.
    const maxImport = Number((await t.portal.db.query<{ m: string }>('SELECT coalesce(max(id), 0)::text AS m FROM rg_restricted_imports')).rows[0]!.m);
    const second0 = 10 ** String(maxImport + 2).length - 1;
    await t.portal.db.query(`SELECT setval(pg_get_serial_sequence('rg_restricted_imports', 'id'), $1)`, [second0 - 1]);
    const first = await api<{ id: number }>(t.url, '/ops/api/rg/restricted/import', { token: risk, body: { csv: [dropped, kept, selfEx, opEx].map((n) => `${n},1988-08-08,government_official`).join('\n') } });
    expect((await t.portal.jobs.runNow('rg.restricted.recheck', `DEMO:${first.json!.value!.id}`)).state).toBe('done');
    // besides the list's exclusion, one self-excludes and an operator excludes another
    await t.portal.rg.exclude('DEMO', ids.selfEx!, { kind: 'member', account: accounts.selfEx! }, 'self', '1y');
    const opx = await api(t.url, '/ops/api/rg/exclusions', { token: risk, body: { memberId: ids.opEx, duration: null, reason: 'risk review' } });
    expect(opx.status, opx.text).toBe(200);
    const kinds = async (memberId: number) => (await t.portal.db.query<{ kind: string }>(
      'SELECT kind FROM rg_exclusions WHERE member_id = $1 AND ended_at IS NULL ORDER BY kind', [memberId])).rows.map((r) => r.kind);
    expect(await kinds(ids.opEx!)).toEqual(['operator', 'restricted']);

    // the newer list names only `kept` (its number is the power of ten after the first's 9...9: as text it sorts below)
    expect(String(second0 + 1)).toMatch(/^10+$/);
    const second = await api<{ id: number }>(t.url, '/ops/api/rg/restricted/import', { token: risk, body: { csv: `${kept},1988-08-08,government_official\n` } });
    const secondId = second.json!.value!.id;
    expect((await t.portal.jobs.runNow('rg.restricted.recheck', `DEMO:${secondId}`)).state).toBe('done');
    expect(await kinds(ids.dropped!)).toEqual([]);
    expect(await kinds(ids.kept!)).toEqual(['restricted']);
    expect(await kinds(ids.selfEx!)).toEqual(['self']);
    expect(await kinds(ids.opEx!)).toEqual(['operator']);
    // the dropped member plays again; the self-excluded one does not
    expect((await api<{ rgExclusion: unknown }>(t.url, '/wps/session/login', { body: { username: accounts.dropped, password: 'abc12345' } })).json?.value?.rgExclusion).toBeNull();
    expect((await api<{ rgExclusion: { kind: string } }>(t.url, '/wps/session/login', { body: { username: accounts.selfEx, password: 'abc12345' } })).json?.value?.rgExclusion?.kind).toBe('self');
    const audit = await t.portal.db.query<{ action: string; operator_username: string; after: { importId?: number } }>(
      `SELECT action, operator_username, after FROM audit_log WHERE target_type = 'member' AND target_id = $1 ORDER BY id`, [String(ids.dropped)]);
    expect(audit.rows.map((a) => `${a.action}/${a.operator_username}`)).toEqual([
      'rg.exclusion.start/system', 'rg.restricted.match/system', 'rg.restricted.lift/system', 'rg.exclusion.end/system']);
    expect(audit.rows[2]!.after.importId).toBe(secondId);
    // operators see it: the import counts what it lifted, and the old match says how it ended
    const summary = await api<{ current: { id: number; lifted: number | null } }>(t.url, '/ops/api/rg/restricted', { token: support });
    expect(summary.json?.value?.current).toMatchObject({ id: secondId, lifted: 3 });
    const matches = await api<{ list: Array<{ memberId: number; importId: number; excluded: boolean; lift: { by: string; importId: number | null } | null }> }>(
      t.url, '/ops/api/rg/restricted/matches?pageSize=100', { token: support });
    const list = matches.json!.value!.list;
    expect(list.find((m) => m.memberId === ids.dropped)).toMatchObject({ excluded: false, lift: { by: 'list', importId: secondId } });
    expect(list.find((m) => m.memberId === ids.kept && m.importId === secondId)).toMatchObject({ excluded: true, lift: null });
    // a rerun lifts nothing more, and an older import's late job lifts nothing
    expect(await t.portal.rgRestricted.liftDropped('DEMO', secondId)).toBe(0);
    expect(await t.portal.rgRestricted.liftDropped('DEMO', first.json!.value!.id)).toBe(0);
  });
});

describe('family exclusion', () => {
  it('a relative asks on the public form; support files one too; risk approves (exclusion + message) or rejects; all audited', async () => {
    const p = await member(0);
    const body = { playerAccount: p.account, requesterName: 'Rosa Cruz', relationship: 'spouse', requesterContact: '+63 917 000 0000', reason: 'He cannot stop and sold the car.' };
    for (const bad of [{ ...body, relationship: 'cousin' }, { ...body, reason: 'x' }, { ...body, extra: 1 }]) {
      expect((await api(t.url, '/wps/v2/rg/family-requests', { body: bad })).status).toBe(400);
    }
    const pub = await api<{ reference: string }>(t.url, '/wps/v2/rg/family-requests', { body, headers: { 'x-forwarded-for': '10.77.0.1' } });
    expect(pub.status, pub.text).toBe(200);
    expect(pub.json?.value?.reference).toMatch(/^FX\d{6}$/);
    // an unknown account gets the same answer (nothing tells whether an account exists)
    const unknown = await api<{ reference: string }>(t.url, '/wps/v2/rg/family-requests', { body: { ...body, playerAccount: 'nobody_here_123' }, headers: { 'x-forwarded-for': '10.77.0.1' } });
    expect(unknown.status).toBe(200);
    expect(Object.keys(unknown.json!.value!)).toEqual(['reference']);
    const viaSupport = await api<{ id: number; source: string; createdBy: string; memberId: number }>(t.url, '/ops/api/rg/family-requests', { token: support, body: { ...body, relationship: 'parent' } });
    expect(viaSupport.json?.value).toMatchObject({ source: 'support', createdBy: 'rgp_support', memberId: p.memberId });
    const list = await api<{ list: Array<{ id: number; reference: string; memberId: number | null; status: string }> }>(t.url, '/ops/api/rg/family-requests?status=pending', { token: support });
    const mine = list.json!.value!.list.find((r) => r.reference === pub.json!.value!.reference)!;
    expect(mine.memberId).toBe(p.memberId);
    expect(list.json!.value!.list.find((r) => r.reference === unknown.json!.value!.reference)?.memberId).toBeNull();
    // support may not decide; risk approves with a duration
    expect((await api(t.url, `/ops/api/rg/family-requests/${mine.id}/decide`, { token: support, body: { decision: 'approve', duration: '1y', note: 'verified by phone' } })).status).toBe(403);
    const approved = await api<{ status: string; decidedBy: string; duration: string }>(t.url, `/ops/api/rg/family-requests/${mine.id}/decide`, { token: risk, body: { decision: 'approve', duration: '1y', note: 'verified by phone' } });
    expect(approved.json?.value).toMatchObject({ status: 'approved', decidedBy: 'rgp_risk', duration: '1y' });
    expect((await api(t.url, `/ops/api/rg/family-requests/${mine.id}/decide`, { token: risk, body: { decision: 'reject', note: 'again' } })).json?.code).toBe('INVALID_STATE');
    // the player's session ended; a new login is restricted (family, a year) and the player has a message
    expect((await api(t.url, '/wps/v2/rg/state', { token: p.token })).status).toBe(401);
    const l = await login(p.account);
    expect(l.json?.value?.rgExclusion?.kind).toBe('family');
    const msgs = await api<{ list: Array<{ kind: string; title: string }> }>(t.url, '/wps/v2/messages', { token: l.json!.value!.token });
    expect(msgs.json?.value?.list[0]).toMatchObject({ kind: 'rg_family_exclusion', title: 'message_rg_family_exclusion' });
    // the other request (no account) can only be rejected
    const unknownId = list.json!.value!.list.find((r) => r.reference === unknown.json!.value!.reference)!.id;
    expect((await api(t.url, `/ops/api/rg/family-requests/${unknownId}/decide`, { token: risk, body: { decision: 'approve', duration: null, note: 'no' } })).json?.code).toBe('INVALID_STATE');
    expect((await api<{ status: string }>(t.url, `/ops/api/rg/family-requests/${unknownId}/decide`, { token: risk, body: { decision: 'reject', note: 'no such player' } })).json?.value?.status).toBe('rejected');
    const audit = await t.portal.db.query<{ action: string; operator_username: string }>(
      `SELECT action, operator_username FROM audit_log WHERE target_type = 'member' AND target_id = $1 AND action LIKE 'rg.%' ORDER BY id`, [String(p.memberId)]);
    expect(audit.rows.map((a) => `${a.action}/${a.operator_username}`)).toEqual([
      'rg.family.requested/public', 'rg.family.requested/rgp_support', 'rg.family.approved/rgp_risk', 'rg.exclusion.start/rgp_risk']);
  });

  it('approval, exclusion and message are one transaction: when the message cannot be stored, the request stays pending with no exclusion', async () => {
    const p = await member(0);
    const body = { playerAccount: p.account, requesterName: 'Lita Cruz', relationship: 'parent', requesterContact: '+63 917 000 0001', reason: 'She borrows money to play every night.' };
    const filed = await api<{ id: number }>(t.url, '/ops/api/rg/family-requests', { token: support, body });
    expect(filed.status, filed.text).toBe(200);
    const id = filed.json!.value!.id;
    // the message store refuses this player's family-exclusion message (a real failure inside the database)
    await t.portal.db.query(`CREATE FUNCTION rgp_refuse_message() RETURNS trigger LANGUAGE plpgsql AS $f$
      BEGIN IF NEW.kind = 'rg_family_exclusion' AND NEW.member_id = ${Number(p.memberId)} THEN RAISE EXCEPTION 'message store refused'; END IF; RETURN NEW; END $f$`);
    await t.portal.db.query('CREATE TRIGGER rgp_refuse_message BEFORE INSERT ON messages FOR EACH ROW EXECUTE FUNCTION rgp_refuse_message()');
    try {
      const failed = await api(t.url, `/ops/api/rg/family-requests/${id}/decide`, { token: risk, body: { decision: 'approve', duration: '1y', note: 'verified' } });
      expect(failed.status).toBe(500);
    } finally {
      await t.portal.db.query('DROP TRIGGER rgp_refuse_message ON messages');
      await t.portal.db.query('DROP FUNCTION rgp_refuse_message()');
    }
    const row = (await t.portal.db.query<{ status: string; exclusion_id: string | null }>('SELECT status, exclusion_id FROM rg_family_requests WHERE id = $1', [id])).rows[0]!;
    expect(row).toEqual({ status: 'pending', exclusion_id: null });
    expect((await t.portal.db.query('SELECT 1 FROM rg_exclusions WHERE member_id = $1', [p.memberId])).rows).toEqual([]);
    expect((await t.portal.db.query(`SELECT 1 FROM audit_log WHERE target_type = 'member' AND target_id = $1 AND action IN ('rg.family.approved', 'rg.exclusion.start')`, [String(p.memberId)])).rows).toEqual([]);
    // the player was not logged out by a rolled-back exclusion
    expect((await api(t.url, '/wps/v2/rg/state', { token: p.token })).status).toBe(200);
    // deciding again once the store works: approved, with its exclusion and message
    const ok = await api<{ status: string }>(t.url, `/ops/api/rg/family-requests/${id}/decide`, { token: risk, body: { decision: 'approve', duration: '1y', note: 'verified' } });
    expect(ok.json?.value?.status).toBe('approved');
    const after = (await t.portal.db.query<{ status: string; kind: string | null }>(
      'SELECT f.status, x.kind FROM rg_family_requests f LEFT JOIN rg_exclusions x ON x.id = f.exclusion_id AND x.ended_at IS NULL WHERE f.id = $1', [id])).rows[0]!;
    expect(after).toEqual({ status: 'approved', kind: 'family' });
    expect((await t.portal.db.query(`SELECT 1 FROM messages WHERE member_id = $1 AND kind = 'rg_family_exclusion'`, [p.memberId])).rows).toHaveLength(1);
  });

  it('the public form is limited per address', async () => {
    const body = { playerAccount: 'someone', requesterName: 'Ana Cruz', relationship: 'parent', requesterContact: 'ana@example.ph', reason: 'Please stop my son from playing.' };
    const codes: number[] = [];
    for (let i = 0; i < 7; i++) codes.push((await api(t.url, '/wps/v2/rg/family-requests', { body, headers: { 'x-forwarded-for': '10.78.0.1' } })).status);
    expect(codes.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(codes.slice(5)).toEqual([429, 429]);
  });
});

describe('the restricted session of an excluded player', () => {
  it('logs in, sees the balance and the RG page, withdraws, writes to customer service; cannot launch, deposit, transfer, join promotions, claim rewards or missions, redeem points or grab envelopes (RG_EXCLUDED)', async () => {
    const p = await member(0);
    await fund(p.memberId, 50_000);
    expect((await api(t.url, '/wps/member/withdraw-password', { token: p.token, body: { loginPassword: TEST_MEMBER_PASSWORD, newWithdrawPassword: 'pay123456', confirmNewWithdrawPassword: 'pay123456' } })).status).toBe(200);
    expect((await api(t.url, '/wps/v2/rg/exclusion', { token: p.token, body: { kind: 'cooling', duration: '7d' } })).status).toBe(200);
    const l = await login(p.account);
    expect(l.status).toBe(200);
    expect(l.json?.value?.rgExclusion?.kind).toBe('cooling');
    const token = l.json!.value!.token;
    const info = await api<{ rgExclusion: { kind: string } }>(t.url, '/wps/member/info', { token });
    expect(info.json?.value?.rgExclusion?.kind).toBe('cooling');
    expect((await api<{ balance: number }>(t.url, '/wps/v2/wallets/balance', { token })).json?.value?.balance).toBe(50_000);
    expect((await api<{ exclusion: { kind: string } }>(t.url, '/wps/v2/rg/state', { token })).json?.value?.exclusion?.kind).toBe('cooling');
    for (const [path, body] of [
      ['/wps/game/launchGame', { nodeId: 'x' }],
      ['/wps/v2/deposit/orders', { channelCode: 'X', amount: 100, requestId: 'r1' }],
      ['/wps/relay/GCS_walletTransfer', { bogus: 1 }],
      ['/wps/relay/MCSFE_addFavoriteGameV2', { nodeId: 'x' }],
      // the other ways money comes in (the client shows these places closed instead of a form that fails)
      ['/wps/relay/MCSFE_signUpPromotionJoin', { promotionId: 1 }],
      ['/wps/relay/MCSFE_signUpRequestReward', { promotionId: 1, remark: '' }],
      ['/wps/relay/MCS2_claimRafflePromotion', { promotionId: 1 }],
      ['/wps/v2/promotions/rewards/claim', { rewardId: 1 }],
      ['/wps/relay/passwordCheck/MCS2_redeemPointReward', { rewardId: 1, quantity: 1, withdrawPassword: 'pay123456', requestId: 'r2' }],
      ['/wps/relay/passwordCheck/MCS2_convertPoint', { points: 100, withdrawPassword: 'pay123456', requestId: 'r3' }],
      ['/wps/envelopes/1/grab', {}],
      ['/wps/v2/missions/claim', { missionId: 1, periodKey: 'D2026-01-01' }],
    ] as const) {
      const r = await api(t.url, path, { token, body });
      expect(r.status, path).toBe(403);
      expect(r.json?.code, path).toBe('RG_EXCLUDED');
    }
    const bank = await api<{ id: string }>(t.url, '/wps/v2/bank-accounts', { token, body: { bankName: 'BPI', accountName: 'Juan Dela Cruz', accountNumber: '1234567890', withdrawPassword: 'pay123456' } });
    expect(bank.status, bank.text).toBe(200);
    const w = await api<{ status: string; amount: number }>(t.url, '/wps/v2/withdrawals', { token, body: { bankAccountId: bank.json!.value!.id, amount: 50_000, withdrawPassword: 'pay123456', requestId: `rgw${randomBytes(4).toString('hex')}` } });
    expect(w.status, w.text).toBe(200);
    expect(w.json?.value?.amount).toBe(50_000);
    // Customer service stays reachable (a question about the withdrawal or the exclusion itself).
    expect((await api(t.url, '/wps/relay/CBS_launchChat', { token, body: {} })).status).toBe(200);
    const asked = await api<{ message: { body: string } }>(t.url, '/wps/chat/messages', { token, body: { body: 'When is my withdrawal paid?' } });
    expect(asked.status, asked.text).toBe(200);
    expect((await api(t.url, '/wps/chat/read', { token, body: {} })).status).toBe(200);
    expect((await api(t.url, '/wps/session/logout', { method: 'DELETE', token })).status).toBe(200);
  });
});

describe('deposit limit under concurrency', () => {
  it('two deposits at once cannot together pass a limit only one fits', async () => {
    const p = await member(0);
    const channels = await api<{ list: Array<{ code: string; minAmount: number; maxAmount: number }> }>(t.url, '/wps/v2/deposit/channels', { token: p.token });
    const ch = channels.json!.value!.list[0]!;
    const amount = Math.max(ch.minAmount, 10_000);
    await api(t.url, '/wps/v2/rg/limits', { token: p.token, body: { kind: 'deposit', period: 'day', amount: Math.floor(amount * 1.5) } });
    for (let round = 0; round < 3; round++) {
      if (round > 0) await t.portal.db.query(`UPDATE deposits SET status = 'failed' WHERE member_id = $1`, [p.memberId]);
      const rs = await Promise.all([0, 1, 2].map(() => api<{ id: string }>(t.url, '/wps/v2/deposit/orders', { token: p.token, body: { channelCode: ch.code, amount, requestId: `rgd${randomBytes(5).toString('hex')}` } })));
      expect(rs.map((r) => r.status).sort(), JSON.stringify(rs.map((r) => r.json?.code))).toEqual([200, 403, 403]);
      expect(rs.filter((r) => r.status === 403).every((r) => r.json?.code === 'RG_LIMIT_REACHED')).toBe(true);
    }
    const open = await t.portal.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM deposits WHERE member_id = $1 AND status = 'pending'`, [p.memberId]);
    expect(open.rows[0]!.n).toBe(1);
  });
});

describe('operator authenticator codes are single-use', () => {
  it('a code accepted once is refused again within its window, and an earlier one too', async () => {
    await t.portal.cashier.operators.createOperator('DEMO', 'rgp_replay', 'Rgp12345678', ['risk'], { totpSecret: OPS_TOTP_SECRET });
    const code = await opsTotp('rgp_replay', t.url);
    const first = await api(t.url, '/ops/api/session/login', { body: { username: 'rgp_replay', password: 'Rgp12345678', totp: code } });
    expect(first.status).toBe(200);
    const again = await api(t.url, '/ops/api/session/login', { body: { username: 'rgp_replay', password: 'Rgp12345678', totp: code } });
    expect(again.status).toBe(400);
    expect(again.json?.code).toBe('TOTP_INVALID');
    // two requests at once with a fresh code: exactly one gets in
    const next = await opsTotp('rgp_replay', t.url);
    const both = await Promise.all([0, 1].map(() => api(t.url, '/ops/api/session/login', { body: { username: 'rgp_replay', password: 'Rgp12345678', totp: next } })));
    expect(both.map((r) => r.status).sort()).toEqual([200, 400]);
  });
});

describe('marketing suppression', () => {
  it('isMarketable and the SQL forms leave out excluded and disabled members', async () => {
    const a = await member(0);
    const b = await member(0);
    const c = await member(0);
    expect(await isMarketable(t.portal.db, a.memberId)).toBe(true);
    await api(t.url, '/wps/v2/rg/exclusion', { token: b.token, body: { kind: 'cooling', duration: '24h' } });
    await api(t.url, `/wps/dev/members/${c.memberId}/disable`, { body: {} });
    expect(await isMarketable(t.portal.db, b.memberId)).toBe(false);
    expect(await isMarketable(t.portal.db, c.memberId)).toBe(false);
    const ids = [a.memberId, b.memberId, c.memberId];
    const bulk = await t.portal.db.query<{ id: number }>(`SELECT m.id FROM members m WHERE m.id = ANY($1) AND ${marketableSql('m.id')} ORDER BY m.id`, [ids]);
    expect(bulk.rows.map((r) => Number(r.id))).toEqual([a.memberId]);
    const view = await t.portal.db.query<{ member_id: number }>('SELECT member_id FROM rg_marketable_members WHERE member_id = ANY($1)', [ids]);
    expect(view.rows.map((r) => Number(r.member_id))).toEqual([a.memberId]);
  });
});

describe("a member's own break during an exclusion", () => {
  it('a break that would end sooner than the running exclusion is refused with its end; a longer one extends it', async () => {
    const p = await member(0);
    expect((await api(t.url, '/wps/v2/rg/exclusion', { token: p.token, body: { kind: 'cooling', duration: '7d' } })).status).toBe(200);
    // Signed out by the exclusion; a login is still allowed (to withdraw), with the exclusion named.
    const l = await login(p.account);
    const token = l.json!.value!.token;
    const shorter = await api(t.url, '/wps/v2/rg/exclusion', { token, body: { kind: 'cooling', duration: '24h' } });
    expect([shorter.status, shorter.json?.code]).toEqual([403, 'RG_EXCLUDED']);
    expect((shorter.json as { value?: { kind: string; until: string } }).value?.kind).toBe('cooling');
    expect((await t.portal.db.query('SELECT 1 FROM rg_exclusions WHERE member_id = $1', [p.memberId])).rows).toHaveLength(1);
    const longer = await api(t.url, '/wps/v2/rg/exclusion', { token, body: { kind: 'self', duration: '6m' } });
    expect(longer.status, longer.text).toBe(200);
    expect((await t.portal.db.query('SELECT 1 FROM rg_exclusions WHERE member_id = $1 AND ended_at IS NULL', [p.memberId])).rows).toHaveLength(2);
  });
});
