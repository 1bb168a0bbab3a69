import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { opsPlayerCalls } from '@portal/contracts/api/ops-players';
import { opsPlatformCalls } from '@portal/contracts/api/ops-platform';
import { opsCalls } from '@portal/contracts/api/ops';
import { opsRgCalls } from '@portal/contracts/api/rg';
import { DEMO_VN } from '../../db/seed.ts';
import { api, connectSocket, startTestPortal, waitFor, type TestPortal, type TestSocket } from '../../testing/test-portal.ts';
import { apiOn } from '../../testing/test-members.ts';
import { enrolOperatorTotp, OPS_TOTP_SECRET, opsTotp } from '../../testing/ops-totp.ts';

/**
 * The players section, brand and registration settings and the platform administrator's merchant
 * editing of the operator console (issue 13), against a real portal.
 */
let t: TestPortal;
const call = apiOn(() => t.url);
const PASSWORD = 'Players-pass-4242';
const tok: Record<string, string> = {};
const sockets: TestSocket[] = [];
const B_HOST = { host: DEMO_VN.host };
let player = { id: 0, token: '' };

async function opsLogin(username: string, headers: Record<string, string> = {}) {
  const r = await api<{ token: string }>(t.url, '/ops/api/session/login', { body: { username, password: PASSWORD, totp: await opsTotp(username, t.url) }, headers });
  expect(r.status, r.text).toBe(200);
  return r.json!.value!.token;
}
const path = (p: string, id: number | string) => p.replace(':id', String(id)).replace(':code', String(id));

beforeAll(async () => {
  t = await startTestPortal();
  const ops = t.portal.cashier.operators;
  for (const [name, roles] of [['pl_admin', ['administrator']], ['pl_support', ['support']], ['pl_finance', ['finance']], ['pl_risk', ['risk']], ['pl_content', ['content']]] as const) {
    await ops.createOperator('DEMO', name, PASSWORD, [...roles], { totpSecret: OPS_TOTP_SECRET });
    tok[name] = await opsLogin(name);
  }
  await ops.createOperator(DEMO_VN.code, 'pl_vnadmin', PASSWORD, ['administrator'], { totpSecret: OPS_TOTP_SECRET });
  tok.pl_vnadmin = await opsLogin('pl_vnadmin', B_HOST);
  const s = await call<{ memberId: number; token: string }>('/wps/dev/sessions', { body: { account: 'findme_player7' } });
  expect(s.status, s.text).toBe(200);
  player = { id: s.json!.value!.memberId, token: s.json!.value!.token };
  await t.portal.db.query(`UPDATE members SET dialing_code = '63', mobile_num = '9175550123', email = 'findme@example.ph', register_ip = '203.0.113.9' WHERE id = $1`, [player.id]);
  await call('/wps/dev/sessions', { body: { account: 'other_player8' } });
}, 180_000);
afterAll(async () => {
  for (const s of sockets) s.close();
  await t.stop();
});

describe('players: search and profile', () => {
  it('finds a player by account, mobile and id; filters by status; pages', async () => {
    const find = async (q: Record<string, string>, token = tok.pl_support!) => {
      const r = await call<{ list: Array<{ id: number; account: string; mobile: string | null }>; total: number }>(`${opsPlayerCalls.players.path}?${new URLSearchParams(q)}`, { token });
      expect(r.status, r.text).toBe(200);
      return r.json!.value!;
    };
    expect((await find({ search: 'FINDME' })).list.map((p) => p.account)).toEqual(['findme_player7']);
    expect((await find({ search: '5550123' })).list.map((p) => p.id)).toEqual([player.id]);
    expect((await find({ search: '+63 917 555 0123' })).list.map((p) => p.id)).toEqual([player.id]);
    expect((await find({ search: String(player.id) })).list.some((p) => p.id === player.id)).toBe(true);
    expect((await find({ search: 'findme' })).list[0]!.mobile).toBe('+63 9175550123');
    // LIKE wildcards are literal
    expect((await find({ search: '%' })).list).toEqual([]);
    expect((await find({ search: 'findme', status: 'disabled' })).list).toEqual([]);
    const page = await find({ pageSize: '1', pageNo: '2' });
    expect(page.list).toHaveLength(1);
    expect(page.total).toBeGreaterThanOrEqual(2);
    expect((await call(`${opsPlayerCalls.players.path}?pageSize=1000`, { token: tok.pl_support })).status).toBe(400);
    expect((await call(`${opsPlayerCalls.players.path}?status=gone`, { token: tok.pl_support })).status).toBe(400);
  });

  it('shows the profile: registration data, RG state, login history; money only to finance, risk and administrators', async () => {
    const r = await call<{ player: { account: string; status: string }; registration: { registerIp: string; email: string }; rg: { exclusion: unknown; limits: unknown[] }; logins: Array<{ isLive: boolean }> }>(
      path(opsPlayerCalls.player.path, player.id), { token: tok.pl_support });
    expect(r.status, r.text).toBe(200);
    expect(r.json!.value).toMatchObject({ player: { account: 'findme_player7', status: 'active' }, registration: { registerIp: '203.0.113.9', email: 'findme@example.ph' }, rg: { exclusion: null } });
    expect(r.json!.value!.logins.some((l) => l.isLive)).toBe(true);

    const money = path(opsPlayerCalls.playerMoney.path, player.id);
    expect((await call(money, { token: tok.pl_support })).status).toBe(403);
    expect((await call(money, { token: tok.pl_content })).status).toBe(403);
    const fin = await call<{ balance: number; available: number; currency: string }>(money, { token: tok.pl_finance });
    expect(fin.status, fin.text).toBe(200);
    expect(fin.json!.value).toMatchObject({ currency: 'PHP' });
    expect(typeof fin.json!.value!.balance).toBe('number');
    // content sees no players at all
    expect((await call(path(opsPlayerCalls.player.path, player.id), { token: tok.pl_content })).status).toBe(403);
    expect((await call(path(opsPlayerCalls.player.path, 999999), { token: tok.pl_admin })).status).toBe(404);
  });
});

describe('the money records, a page at a time', () => {
  it('pages deposits, withdrawals and bet rounds newest first with a total; bad paging is 400; support may not read them', async () => {
    const m = await call<{ memberId: number }>('/wps/dev/sessions', { body: { account: 'pager_player3' } });
    const id = m.json!.value!.memberId;
    // 23 deposit orders and 12 bet rounds (a bet and a win each), oldest first
    for (let i = 1; i <= 23; i++) {
      await t.portal.db.query(
        `INSERT INTO deposits (merchant_code, member_id, channel_code, provider, provider_order_id, reference, request_id, amount, currency, created_at)
         VALUES ('DEMO', $1, 'gcash', 'sim', $2, $2, $2, $3, 'PHP', now() - make_interval(mins => 100 - $4::int))`, [id, `pg-dep-${id}-${i}`, i * 100, i]);
    }
    for (let i = 1; i <= 12; i++) {
      for (const kind of ['bet', 'win'] as const) {
        await t.portal.db.query(
          `INSERT INTO vendor_transactions (merchant_code, vendor, transaction_id, kind, member_id, round_id, game_code, amount, status, response, created_at)
           VALUES ('DEMO', 'pgsim', $1, $2, $3, $4, 'slot1', $5, 'applied', '{}', now() - make_interval(mins => 100 - $6::int))`,
          [`pg-${id}-${i}-${kind}`, kind, id, `round-${i}`, kind === 'bet' ? 1000 : i, i]);
      }
    }
    const get = <T,>(p: string, q: string, token = tok.pl_risk) => call<{ list: T[]; pageNo: number; pageSize: number; total: number }>(`${path(p, id)}${q}`, { token });
    const d1 = await get<{ amount: number }>(opsPlayerCalls.playerDeposits.path, '');
    expect(d1.status, d1.text).toBe(200);
    expect(d1.json!.value).toMatchObject({ pageNo: 1, pageSize: 10, total: 23 });
    expect(d1.json!.value!.list.map((d) => d.amount)).toEqual([2300, 2200, 2100, 2000, 1900, 1800, 1700, 1600, 1500, 1400]);
    const d3 = await get<{ amount: number }>(opsPlayerCalls.playerDeposits.path, '?pageNo=3');
    expect(d3.json!.value!.list.map((d) => d.amount)).toEqual([300, 200, 100]);
    const past = await get<{ amount: number }>(opsPlayerCalls.playerDeposits.path, '?pageNo=9');
    expect(past.json!.value).toMatchObject({ list: [], total: 23 });
    const b2 = await get<{ roundId: string; stake: number; win: number }>(opsPlayerCalls.playerBets.path, '?pageNo=2&pageSize=5');
    expect(b2.json!.value).toMatchObject({ pageNo: 2, pageSize: 5, total: 12 });
    expect(b2.json!.value!.list.map((b) => [b.roundId, b.stake, b.win])).toEqual([['round-7', 1000, 7], ['round-6', 1000, 6], ['round-5', 1000, 5], ['round-4', 1000, 4], ['round-3', 1000, 3]]);
    // a round of a catalogued game carries its name (the house slot); a game the catalogue does not list, none
    await t.portal.db.query(
      `INSERT INTO vendor_transactions (merchant_code, vendor, transaction_id, kind, member_id, round_id, game_code, amount, status, response, created_at)
       VALUES ('DEMO', 'HOUSE', $1, 'bet', $2, 'house-round', 'SLOT1', 500, 'applied', '{}', now())`, [`pg-${id}-house`, id]);
    const named = await get<{ roundId: string; gameCode: string | null; gameName: string | null }>(opsPlayerCalls.playerBets.path, '?pageSize=2');
    expect(named.json!.value!.list.map((b) => [b.roundId, b.gameCode, b.gameName])).toEqual([['house-round', 'SLOT1', 'Lucky Peso Reels'], ['round-12', 'slot1', null]]);
    expect(named.json!.value!.total).toBe(13);
    const w = await get(opsPlayerCalls.playerWithdrawals.path, '?pageSize=50', tok.pl_finance);
    expect(w.json!.value).toEqual({ list: [], pageNo: 1, pageSize: 50, total: 0 });
    for (const q of ['?pageNo=0', '?pageSize=51', '?pageNo=1e400', '?pageNo=10001', '?pageSize=-1', '?pageNo=x', '?cursor=1']) {
      for (const p of [opsPlayerCalls.playerDeposits.path, opsPlayerCalls.playerWithdrawals.path, opsPlayerCalls.playerBets.path]) {
        expect((await call(`${path(p, id)}${q}`, { token: tok.pl_risk })).status, `${p}${q}`).toBe(400);
      }
    }
    expect((await get(opsPlayerCalls.playerDeposits.path, '', tok.pl_support)).status).toBe(403);
  });

  it("lists the account record, adjustments included, that adds up to the balance (deposits and bets alone did not)", async () => {
    const m = await call<{ memberId: number }>('/wps/dev/sessions', { body: { account: 'ledger_player4' } });
    const id = m.json!.value!.memberId;
    for (const [amount, requestId] of [[50_000, 'led-adj-1'], [-12_345, 'led-adj-2']] as const) {
      const r = await call(opsCalls.adjust.path, { token: tok.pl_finance, body: { account: 'ledger_player4', amount, reason: 'Reconcile test', requestId } });
      expect(r.status, r.text).toBe(200);
    }
    const page = await call<{ list: Array<{ kind: string; amount: number; balanceAfter: number | null }>; total: number }>(path(opsPlayerCalls.playerLedger.path, id), { token: tok.pl_risk });
    expect(page.status, page.text).toBe(200);
    expect(page.json!.value!.total).toBe(2);
    expect(page.json!.value!.list.map((r) => [r.kind, r.amount, r.balanceAfter])).toEqual([['adjustment', -12_345, 37_655], ['adjustment', 50_000, 50_000]]);
    const money = await call<{ balance: number }>(path(opsPlayerCalls.playerMoney.path, id), { token: tok.pl_risk });
    expect(money.json!.value!.balance).toBe(page.json!.value!.list[0]!.balanceAfter);
    expect((await call(path(opsPlayerCalls.playerLedger.path, id), { token: tok.pl_support })).status).toBe(403);
    expect((await call(`${path(opsPlayerCalls.playerLedger.path, id)}?pageSize=51`, { token: tok.pl_risk })).status).toBe(400);
    // Finance, who made them, lists them (the page's list was the audit trail, which finance may not read).
    const made = await call<{ list: Array<{ account: string; amount: number; reason: string; operator: string; reference: string }>; total: number }>(`${opsCalls.adjustments.path}?pageSize=2`, { token: tok.pl_finance });
    expect(made.status, made.text).toBe(200);
    expect(made.json!.value!.list.map((a) => [a.account, a.amount, a.reason, a.operator, a.reference])).toEqual([
      ['ledger_player4', -12_345, 'Reconcile test', 'pl_finance', 'A-led-adj-2'], ['ledger_player4', 50_000, 'Reconcile test', 'pl_finance', 'A-led-adj-1'],
    ]);
    expect(made.json!.value!.total).toBeGreaterThanOrEqual(2);
    expect((await call(opsCalls.adjustments.path, { token: tok.pl_support })).status).toBe(403);
    expect((await call(`${opsCalls.adjustments.path}?pageNo=10001`, { token: tok.pl_finance })).status).toBe(400);
  });
});

describe('operator notes', () => {
  it('appends notes with author and time; they cannot be changed; finance cannot write them', async () => {
    const notes = path(opsPlayerCalls.notes.path, player.id);
    expect((await call(notes, { token: tok.pl_support, body: { note: '   ' } })).status).toBe(400);
    expect((await call(notes, { token: tok.pl_finance, body: { note: 'no' } })).status).toBe(403);
    const a = await call<{ id: string; author: string; note: string }>(notes, { token: tok.pl_support, body: { note: 'Called about a late deposit' } });
    expect(a.status, a.text).toBe(200);
    expect(a.json!.value).toMatchObject({ author: 'pl_support', note: 'Called about a late deposit' });
    await call(notes, { token: tok.pl_risk, body: { note: 'Second note' } });
    const list = await call<{ list: Array<{ author: string; note: string; at: string }> }>(notes, { token: tok.pl_admin });
    expect(list.json!.value!.list.map((n) => [n.author, n.note])).toEqual([['pl_risk', 'Second note'], ['pl_support', 'Called about a late deposit']]);
    await expect(t.portal.db.query('UPDATE member_notes SET note = $1', ['x'])).rejects.toThrow(/append-only/);
    await expect(t.portal.db.query('DELETE FROM member_notes')).rejects.toThrow(/append-only/);
    const audit = await t.portal.db.query<{ action: string }>(`SELECT action FROM audit_log WHERE action = 'player.note' AND target_id = $1`, [String(player.id)]);
    expect(audit.rows).toHaveLength(2);
  });
});

describe('freeze and unfreeze', () => {
  it('risk freezes with a reason (audited); the player is refused at once; support may not', async () => {
    const status = path(opsCalls.memberStatus.path, player.id);
    expect((await call(status, { token: tok.pl_support, body: { status: 'disabled', reason: 'suspicious' } })).status).toBe(403);
    const sock = await connectSocket(t.url, { token: player.token });
    sockets.push(sock);
    const closed = new Promise((resolve) => sock.once('disconnect', resolve));
    const r = await call(status, { token: tok.pl_risk, body: { status: 'disabled', reason: 'Chargeback investigation' } });
    expect(r.status, r.text).toBe(200);
    await closed;
    expect((await call('/wps/member/info', { token: player.token })).status).toBe(401);
    const prof = await call<{ player: { status: string }; logins: Array<{ isLive: boolean }> }>(path(opsPlayerCalls.player.path, player.id), { token: tok.pl_support });
    expect(prof.json!.value!.player.status).toBe('disabled');
    expect(prof.json!.value!.logins.every((l) => !l.isLive)).toBe(true);
    const audit = await t.portal.db.query<{ operator_username: string; after: { reason: string } }>(
      `SELECT operator_username, after FROM audit_log WHERE action = 'member.disable' AND target_id = $1`, [String(player.id)]);
    expect(audit.rows).toEqual([{ operator_username: 'pl_risk', after: { status: 'disabled', reason: 'Chargeback investigation' } }]);
    expect((await call(status, { token: tok.pl_risk, body: { status: 'active', reason: 'Cleared' } })).status).toBe(200);
  });

  it('RG actions from the profile: risk excludes and lifts; the profile shows it', async () => {
    const x = await call<{ id: string; kind: string }>(opsRgCalls.exclude.path, { token: tok.pl_risk, body: { memberId: player.id, duration: null, reason: 'Family request checked' } });
    expect(x.status, x.text).toBe(200);
    const prof = await call<{ player: { isExcluded: boolean }; rg: { exclusion: { kind: string } | null; events: Array<{ action: string; by: string }> } }>(path(opsPlayerCalls.player.path, player.id), { token: tok.pl_support });
    expect(prof.json!.value).toMatchObject({ player: { isExcluded: true }, rg: { exclusion: { kind: 'operator' } } });
    // the console names the operator and the reason (it said 'by an operator' only)
    expect(prof.json!.value!.rg.events[0]).toMatchObject({ by: 'operator', operator: 'pl_risk', reason: 'Family request checked' });
    expect((await call(path(opsRgCalls.lift.path, x.json!.value!.id), { token: tok.pl_risk, body: { reason: 'Reviewed' } })).status).toBe(200);
    const after = await call<{ rg: { events: Array<{ action: string; operator: string | null; reason: string | null }> } }>(path(opsPlayerCalls.player.path, player.id), { token: tok.pl_support });
    expect(after.json!.value!.rg.events[0]).toMatchObject({ action: 'rg.exclusion.end', operator: 'pl_risk', reason: 'Reviewed' });
    // the player is told an operator acted, not which one
    const fresh = (await call<{ token: string }>('/wps/dev/sessions', { body: { account: 'findme_player7' } })).json!.value!.token;
    const own = await call<{ list: Array<Record<string, unknown>> }>('/wps/v2/rg/events', { token: fresh });
    expect(own.status, own.text).toBe(200);
    expect(own.json!.value!.list[0]).toMatchObject({ action: 'rg.exclusion.end', by: 'operator' });
    for (const e of own.json!.value!.list) {
      expect(e).not.toHaveProperty('operator');
      // nor the operator's reason, which the audit row's after carried
      expect(JSON.stringify(e)).not.toContain('Reviewed');
      expect(JSON.stringify(e)).not.toContain('Family request checked');
    }
  });
});

describe('merchant isolation of the players section', () => {
  it("another merchant's operator never finds or opens this merchant's players", async () => {
    const r = await call<{ list: Array<{ account: string }> }>(`${opsPlayerCalls.players.path}?search=findme`, { token: tok.pl_vnadmin, headers: B_HOST });
    expect(r.status, r.text).toBe(200);
    expect(r.json!.value!.list).toEqual([]);
    for (const p of [opsPlayerCalls.player.path, opsPlayerCalls.playerMoney.path, opsPlayerCalls.notes.path, opsPlayerCalls.playerDeposits.path, opsPlayerCalls.playerWithdrawals.path, opsPlayerCalls.playerBets.path]) {
      const res = await call(path(p, player.id), { token: tok.pl_vnadmin, headers: B_HOST });
      expect(res.status, p).toBe(404);
      expect(res.text).not.toContain('findme');
    }
    expect((await call(path(opsPlayerCalls.notes.path, player.id), { token: tok.pl_vnadmin, headers: B_HOST, body: { note: 'x' } })).status).toBe(404);
    // an operator token of merchant A on B's host is not a session there
    expect((await call(opsPlayerCalls.players.path, { token: tok.pl_admin, headers: B_HOST })).status).toBe(401);
  });
});

describe('brand configuration and registration rules, live', () => {
  it('content edits the brand; the whitelabel and domain route calls answer it at once; audited; open pages are told', async () => {
    const guest = await connectSocket(t.url, {});
    sockets.push(guest);
    // warm the bootstrap cache
    expect((await call<{ brand: { siteName: string } }>('/wps/system/whitelabel')).status).toBe(200);
    expect((await call(opsPlayerCalls.updateBrand.path, { method: 'PUT', token: tok.pl_support, body: { siteName: 'Nope' } })).status).toBe(403);
    expect((await call(opsPlayerCalls.updateBrand.path, { method: 'PUT', token: tok.pl_content, body: {} })).status).toBe(400);
    expect((await call(opsPlayerCalls.updateBrand.path, { method: 'PUT', token: tok.pl_content, body: { logoUrl: 'javascript:alert(1)' } })).status).toBe(400);
    // Another site written as a path: '//host' (the page's scheme, http on a plain page) and '/\\host'.
    for (const logoUrl of ['//evil.example/logo.png', '/\\evil.example/x.png', 'https://cdn.example/a\\b.png']) {
      expect((await call(opsPlayerCalls.updateBrand.path, { method: 'PUT', token: tok.pl_content, body: { logoUrl } })).status, logoUrl).toBe(400);
    }
    expect((await call(opsPlayerCalls.updateBrand.path, { method: 'PUT', token: tok.pl_content, body: { logoUrl: '/img/logo.svg' } })).status).toBe(200);
    expect((await call(opsPlayerCalls.updateBrand.path, { method: 'PUT', token: tok.pl_content, body: { imageCDNs: ['http://plain.example'] } })).status).toBe(400);
    const r = await call<{ siteName: string; gtagId: string }>(opsPlayerCalls.updateBrand.path, {
      method: 'PUT', token: tok.pl_content, body: { siteName: 'Lucky Palace', gtagId: 'G-TEST1234', imageCDNs: ['https://img1.example.ph'], launchGameCDNs: ['https://launch.example.ph/g'] },
    });
    expect(r.status, r.text).toBe(200);
    const wl = await call<{ brand: { siteName: string; logoUrl: string } }>('/wps/system/whitelabel');
    expect(wl.json!.value!.brand.siteName).toBe('Lucky Palace');
    // the generated logo draws the name: it follows the new one (it kept saying LuckyPeso)
    expect(wl.json!.value!.brand.logoUrl).toBe('/img/logo.svg?n=Lucky%20Palace');
    // a logo of the operator's own is kept when the name changes
    expect((await call(opsPlayerCalls.updateBrand.path, { method: 'PUT', token: tok.pl_content, body: { logoUrl: 'https://cdn.example/logo.png' } })).status).toBe(200);
    expect((await call(opsPlayerCalls.updateBrand.path, { method: 'PUT', token: tok.pl_content, body: { siteName: 'Lucky Palace 2' } })).status).toBe(200);
    expect((await call<{ logoUrl: string }>(opsPlayerCalls.brand.path, { token: tok.pl_support })).json!.value!.logoUrl).toBe('https://cdn.example/logo.png');
    expect((await call(opsPlayerCalls.updateBrand.path, { method: 'PUT', token: tok.pl_content, body: { siteName: 'Lucky Palace', logoUrl: '/img/logo.svg?n=Lucky%20Palace' } })).status).toBe(200);
    // the console's form sends the logo it shows along with the new name: that keeps the generated one, redrawn
    const form = await call<{ logoUrl: string }>(opsPlayerCalls.updateBrand.path, { method: 'PUT', token: tok.pl_content, body: { siteName: 'Lucky Hall', logoUrl: '/img/logo.svg?n=Lucky%20Palace' } });
    expect(form.json!.value!.logoUrl).toBe('/img/logo.svg?n=Lucky%20Hall');
    expect((await call(opsPlayerCalls.updateBrand.path, { method: 'PUT', token: tok.pl_content, body: { siteName: 'Lucky Palace' } })).status).toBe(200);
    const dr = await call<{ info: { analytics: { gtagId: string }; imageCDNs: string[]; launchGameCDNs: string[] } }>('/wps/system/domainRoute');
    expect(dr.json!.value!.info).toMatchObject({ analytics: { gtagId: 'G-TEST1234' }, imageCDNs: ['https://img1.example.ph'], launchGameCDNs: ['https://launch.example.ph/g'] });
    // the other merchant's brand is untouched
    expect((await call<{ brand: { siteName: string } }>('/wps/system/whitelabel', { headers: B_HOST })).json!.value!.brand.siteName).not.toBe('Lucky Palace');
    const told = await waitFor(() => guest.received.find((e) => e.type === 'system.changed'), 'system.changed');
    expect(told.payload).toEqual({ parts: ['whitelabel'] });
    const audit = await t.portal.db.query<{ operator_username: string; after: { siteName: string } }>(`SELECT operator_username, after FROM audit_log WHERE action = 'brand.update'`);
    expect(audit.rows[0]).toMatchObject({ operator_username: 'pl_content', after: { siteName: 'Lucky Palace' } });
    const read = await call<{ siteName: string }>(opsPlayerCalls.brand.path, { token: tok.pl_support });
    expect(read.json!.value!.siteName).toBe('Lucky Palace');
  });

  it('brand colours: #rrggbb readable on each theme or a 400 naming each problem; stored per merchant, served by the whitelabel call at once; open pages told', async () => {
    const guest = await connectSocket(t.url, {});
    sockets.push(guest);
    expect((await call('/wps/system/whitelabel')).status).toBe(200);
    const good = { dark: { primary: '#5AA0FF', accent: '#2d6cdf' }, light: { primary: '#1f4fae', accent: '#2d6cdf' } };
    const put = (colors: unknown, token = tok.pl_content) => call<{ colors: unknown }>(opsPlayerCalls.updateBrand.path, { method: 'PUT', token, body: { colors } });
    expect((await put(good, tok.pl_support)).status).toBe(403);
    for (const bad of [{ ...good, dark: { primary: 'blue', accent: '#2d6cdf' } }, { ...good, light: { primary: '#12345', accent: '#2d6cdf' } }, { dark: good.dark }, { ...good, extra: 1 }, 'red']) {
      expect((await put(bad)).status, JSON.stringify(bad)).toBe(400);
    }
    // unreadable: near-black on the dark background, yellow on the light one; each named with its ratio
    const dim = await put({ dark: { primary: '#111111', accent: '#2d6cdf' }, light: { primary: '#1f4fae', accent: '#ffff00' } });
    expect(dim.status).toBe(400);
    const details = (dim.json as { code: string; details?: Array<{ path: string; message: string }> });
    expect(details.code).toBe('VALIDATION');
    expect(details.details?.map((d) => d.path).sort()).toEqual(['colors.dark.primary', 'colors.light.accent']);
    expect(details.details?.find((d) => d.path === 'colors.dark.primary')?.message).toMatch(/contrast 1\.\d\d:1 .*4\.5:1/);
    expect((await call<{ brand: { colors?: unknown } }>('/wps/system/whitelabel')).json!.value!.brand.colors).toBeUndefined();

    const ok = await put(good);
    expect(ok.status, ok.text).toBe(200);
    const stored = { dark: { primary: '#5aa0ff', accent: '#2d6cdf' }, light: good.light };
    expect(ok.json!.value!.colors).toEqual(stored);
    expect((await call<{ brand: { colors?: unknown } }>('/wps/system/whitelabel')).json!.value!.brand.colors).toEqual(stored);
    expect((await call<{ brand: { colors?: unknown } }>('/wps/system/whitelabel', { headers: B_HOST })).json!.value!.brand.colors).toBeUndefined();
    const told = await waitFor(() => guest.received.find((e) => e.type === 'system.changed'), 'system.changed');
    expect(told.payload).toEqual({ parts: ['whitelabel'] });
    const audit = await t.portal.db.query<{ after: { colors: unknown } }>(`SELECT after FROM audit_log WHERE action = 'brand.update' ORDER BY id DESC LIMIT 1`);
    expect(audit.rows[0]!.after).toEqual({ colors: stored });
    // null: back to the design card's colours
    expect((await put(null)).json!.value!.colors).toBeNull();
    expect((await call<{ brand: { colors?: unknown } }>('/wps/system/whitelabel')).json!.value!.brand.colors).toBeUndefined();
  });

  it('administrators change which registration fields are shown and required; the settings call answers it at once; refuses nonsense', async () => {
    type Rules = { fields: Array<{ field: string; enabled: boolean; required: boolean; minLength: number; maxLength: number }> };
    const before = await call<Rules>('/wps/system/setting/register');
    expect(before.json!.value!.fields.find((f) => f.field === 'email')).toMatchObject({ enabled: true, required: false });
    const put = (body: unknown, token = tok.pl_admin) => call<Rules>(opsPlayerCalls.updateRegistration.path, { method: 'PUT', token, body });
    const email = { field: 'email', enabled: true, required: true, patternId: 3, minLength: 5, maxLength: 60 };
    expect((await put({ fields: [email] }, tok.pl_content)).status).toBe(403);
    expect((await put({ fields: [{ ...email, field: 'username', enabled: false }] })).status).toBe(400);
    expect((await put({ fields: [{ ...email, minLength: 70 }] })).status).toBe(400);
    expect((await put({ fields: [email, email] })).status).toBe(400);
    expect((await put({ fields: [{ ...email, field: 'shoeSize' }] })).status).toBe(400);
    // The market's fields (a Philippine site screens identities) are fixed too: switching the full name off
    // was answered 200 and then ignored. The console's GET names every fixed field, so its form locks them.
    const fixed = (await call<Rules & { fixed: string[] }>(opsPlayerCalls.registration.path, { token: tok.pl_admin })).json!.value!.fixed;
    expect(fixed).toEqual(expect.arrayContaining(['username', 'password', 'confirmPassword', 'payeeName', 'birthday']));
    const nameOff = await put({ fields: [{ field: 'payeeName', enabled: false, required: false, patternId: 1, minLength: 1, maxLength: 60 }] });
    expect([nameOff.status, nameOff.json?.code, (nameOff.json as { details?: Array<{ path: string }> } | null)?.details?.[0]?.path]).toEqual([400, 'VALIDATION', 'payeeName']);
    const ok = await put({ fields: [email, { field: 'idNumber', enabled: true, required: false, patternId: 4, minLength: 4, maxLength: 20 }] });
    expect(ok.status, ok.text).toBe(200);
    const after = await call<Rules>('/wps/system/setting/register');
    expect(after.json!.value!.fields.find((f) => f.field === 'email')).toMatchObject({ enabled: true, required: true, minLength: 5, maxLength: 60 });
    expect(after.json!.value!.fields.find((f) => f.field === 'idNumber')).toMatchObject({ enabled: true, required: false });
    // the rule is enforced by the server: registering without the now-required e-mail is refused
    const reg = await call('/wps/member/register', { method: 'PUT', body: { username: 'noemail01', password: 'abc12345', confirmPassword: 'abc12345' } });
    expect(reg.status).toBe(400);
    const audit = await t.portal.db.query(`SELECT 1 FROM audit_log WHERE action = 'registration.update'`);
    expect(audit.rows).toHaveLength(1);
    expect((await call<Rules>(opsPlayerCalls.registration.path, { token: tok.pl_support })).json!.value!.fields.find((f) => f.field === 'email')).toMatchObject({ required: true });
  });

  it('a payment password shown on the form is required by the server too, whatever its rule says (spec section 5)', async () => {
    const pay = { field: 'paymentPassword', enabled: true, required: false, patternId: 5, minLength: 6, maxLength: 20 };
    const email = { field: 'email', enabled: true, required: false, patternId: 3, minLength: 5, maxLength: 60 };
    const ok = await call(opsPlayerCalls.updateRegistration.path, { method: 'PUT', token: tok.pl_admin, body: { fields: [email, pay] } });
    expect(ok.status, ok.text).toBe(200);
    const register = async (username: string, extra: Record<string, string>) => {
      const c = (await call<{ captchaKey: string }>('/wps/captcha')).json!.value!;
      const a = (await call<{ answer: string }>(`/wps/dev/captcha/${c.captchaKey}`)).json!.value!;
      return call<{ token: string }>('/wps/member/register', { method: 'PUT', body: {
        username, password: 'abc12345', confirmPassword: 'abc12345', termsAccepted: true, ageConfirmed: true, payeeName: 'Juan Dela Cruz', birthday: '1990-01-01',
        captchaKey: c.captchaKey, captcha: a.answer, ...extra,
      } });
    };
    const without = await register('nopaypw01', {});
    expect([without.status, without.json?.code]).toEqual([400, 'VALIDATION']);
    expect(JSON.stringify(without.json)).toContain('paymentPassword');
    // The transaction password may not be the login password, and a birthday the calendar lacks is a field
    // error (it used to reach the restricted-persons lookup and answer 500).
    const same = await register('samepw01', { paymentPassword: 'abc12345' });
    expect([same.status, same.json?.code, (same.json as { details?: Array<{ path: string }> } | undefined)?.details?.map((d) => d.path)]).toEqual([400, 'VALIDATION', ['paymentPassword']]);
    const feb30 = await register('feb30pw01', { paymentPassword: 'pay12345', birthday: '1990-02-30' });
    expect([feb30.status, feb30.json?.code, (feb30.json as { details?: Array<{ path: string }> } | undefined)?.details?.map((d) => d.path)]).toEqual([400, 'VALIDATION', ['birthday']]);
    const withIt = await register('paypw01', { paymentPassword: 'pay12345' });
    expect(withIt.status, withIt.text).toBe(200);
  });
});

describe('the platform administrator edits merchants', () => {
  it('lists and edits any merchant; others get 403; domains stay unique; currency is kept once players exist', async () => {
    const login = await call<{ token: string }>('/ops/api/session/login', { body: { username: 'platform01', password: '{secret}' } });
    const platform = login.json!.value!.token;
    await call('/ops/api/session/password', { token: platform, body: { oldPassword: '{secret}', newPassword: PASSWORD, confirmNewPassword: PASSWORD } });
    await enrolOperatorTotp(t.url, platform);
    const me = await call<{ isPlatform: boolean }>('/ops/api/session', { token: platform });
    expect(me.json!.value!.isPlatform).toBe(true);
    expect((await call<{ isPlatform: boolean }>('/ops/api/session', { token: tok.pl_admin })).json!.value!.isPlatform).toBe(false);

    for (const token of [tok.pl_admin, tok.pl_vnadmin]) {
      expect((await call(opsPlatformCalls.merchants.path, { token, headers: token === tok.pl_vnadmin ? B_HOST : {} })).status).toBe(403);
      expect((await call(path(opsPlatformCalls.updateMerchant.path, 'DEMO'), { method: 'PUT', token, headers: token === tok.pl_vnadmin ? B_HOST : {}, body: { name: 'Hijack' } })).status).toBe(403);
    }
    const list = await call<{ list: Array<{ code: string; memberCount: number; supportedLanguages: string[] }> }>(opsPlatformCalls.merchants.path, { token: platform });
    expect(list.json!.value!.list.map((m) => m.code)).toEqual(expect.arrayContaining(['DEMO', 'DEMOVN']));
    const vn = path(opsPlatformCalls.updateMerchant.path, DEMO_VN.code);
    expect((await call(vn, { method: 'PUT', token: platform, body: {} })).status).toBe(400);
    expect((await call(vn, { method: 'PUT', token: platform, body: { domains: ['127.0.0.1'] } })).status).toBe(400);
    expect((await call(vn, { method: 'PUT', token: platform, body: { domains: ['localhost'] } })).status).toBeLessThan(500);
    expect((await call(path(opsPlatformCalls.updateMerchant.path, 'NOPE'), { method: 'PUT', token: platform, body: { name: 'x' } })).status).toBe(404);
    const edited = await call<{ name: string; domains: string[]; supportedLanguages: string[]; defaultLanguage: string; modules: Record<string, boolean> }>(vn, {
      method: 'PUT', token: platform, body: { name: 'Demo Vietnam 2', domains: [DEMO_VN.host, 'vn2.localhost'], supportedLanguages: ['EN'], defaultLanguage: 'EN', modules: { FREEPLAY3: false } },
    });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.json!.value).toMatchObject({ name: 'Demo Vietnam 2', domains: [DEMO_VN.host, 'vn2.localhost'], supportedLanguages: ['EN'], defaultLanguage: 'EN', modules: { FREEPLAY3: false } });
    // the new host name resolves to that merchant at once, and its bootstrap answers follow
    const wl = await call<{ merchantCode: string; brand: { supportedLanguages: string[] }; modules: { FREEPLAY3: boolean } }>('/wps/system/whitelabel', { headers: { host: 'vn2.localhost' } });
    expect(wl.json!.value).toMatchObject({ merchantCode: DEMO_VN.code, brand: { supportedLanguages: ['EN'] }, modules: { FREEPLAY3: false } });
    // DEMO has players: its currency stays
    expect((await call(path(opsPlatformCalls.updateMerchant.path, 'DEMO'), { method: 'PUT', token: platform, body: { currency: 'USD' } })).json).toMatchObject({ code: 'CONFLICT' });
    const audit = await t.portal.db.query<{ merchant_code: string; target_id: string }>(`SELECT merchant_code, target_id FROM audit_log WHERE action = 'merchant.update'`);
    expect(audit.rows.map((a) => a.target_id)).toContain(DEMO_VN.code);
  });
});
