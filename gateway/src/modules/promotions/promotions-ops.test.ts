import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZOpsPromotion, ZOpsPromotionList, type TOpsPromotion } from '@portal/contracts/api/promotions';
import { DEMO_VN } from '../../db/seed.ts';
import { startTestPortal, type TestPortal } from '../../testing/test-portal.ts';
import { apiOn, testMembers } from '../../testing/test-members.ts';
import { OPS_TOTP_SECRET, opsTotp } from '../../testing/ops-totp.ts';

/**
 * /ops/promotions from the operator side, over HTTP: create, edit and status changes (enable, disable,
 * schedule, end) of a promotion, each allowed only to its roles (promotions.read: administrator, content,
 * finance; promotions.manage: administrator, content), audited, refused with a 4xx and nothing changed
 * otherwise; the players' list follows the status an operator sets.
 */
let t: TestPortal;
const call = apiOn(() => t.url);
const newMember = testMembers(() => t.url, { prefix: 'po' });
const ops: Record<string, string> = {};
const PASSWORD = 'PromoOps12345';
const VN = { host: DEMO_VN.host };
const hour = 3600_000;
const at = (ms: number) => new Date(Date.now() + ms).toISOString();
const PATH = '/ops/api/promotions';

beforeAll(async () => {
  t = await startTestPortal();
  const roles = [['poadmin', ['administrator']], ['pocontent', ['content']], ['pofinance', ['finance']], ['porisk', ['risk']], ['posupport', ['support']]] as const;
  for (const [name, r] of roles) {
    await t.portal.cashier.operators.createOperator('DEMO', name, PASSWORD, [...r], { totpSecret: OPS_TOTP_SECRET });
    ops[name] = (await call<{ token: string }>('/ops/api/session/login', { body: { username: name, password: PASSWORD, totp: await opsTotp(name, t.url) } })).json!.value!.token;
  }
  // An administrator of another merchant: no reach into DEMO's promotions.
  await t.portal.cashier.operators.createOperator(DEMO_VN.code, 'povn', PASSWORD, ['administrator'], { totpSecret: OPS_TOTP_SECRET });
  const vn = await call<{ token: string }>('/ops/api/session/login', { body: { username: 'povn', password: PASSWORD, totp: await opsTotp('povn', t.url) }, headers: VN });
  expect(vn.status, vn.text).toBe(200);
  ops.povn = vn.json!.value!.token;
}, 300_000);
afterAll(async () => {
  await t?.stop();
}, 120_000);

const body = (over: Record<string, unknown> = {}) => ({
  category: 'limited', kind: 'request', title: { EN: 'Ops check', TY: 'Pagsusuri ng ops' }, rules: { EN: 'Rules', TY: 'Mga tuntunin' },
  startsAt: at(-hour), rewardAmount: 10_00, ...over,
});
const opsList = async (token = ops.poadmin!) => {
  const r = await call<unknown>(PATH, { token });
  expect(r.status, r.text).toBe(200);
  return ZOpsPromotionList.parse(r.json!.value).list;
};
const put = (id: string, b: Record<string, unknown>, token = ops.pocontent!) => call<TOpsPromotion>(`${PATH}/${id}`, { method: 'PUT', token, body: b });
const playerStatus = async (token: string, id: string) =>
  (await call<{ list: Array<{ id: string; status: string; title: string }> }>('/wps/v2/promotions?language=TY', { token })).json!.value!.list.find((p) => p.id === id);
const auditOf = async (id: string) => (await t.portal.db.query<{ action: string; operator_username: string; before: { enabled?: boolean; title?: { EN: string } } | null; after: { enabled?: boolean; title?: { EN: string } } | null }>(
  `SELECT action, operator_username, before, after FROM audit_log WHERE target_type = 'promotion' AND target_id = $1 ORDER BY id`, [id])).rows;

describe('/ops/api/promotions (operator side)', { timeout: 180_000 }, () => {
  it('reading: administrator, content and finance; risk and support 403; a member token or none 401; another merchant sees none of it', async () => {
    const created = await call<TOpsPromotion>(PATH, { token: ops.poadmin!, body: body({ title: { EN: 'Only DEMO', TY: 'DEMO lamang' } }) });
    expect(created.status, created.text).toBe(200);
    for (const r of ['poadmin', 'pocontent', 'pofinance']) expect((await call(PATH, { token: ops[r]! })).status, r).toBe(200);
    for (const r of ['porisk', 'posupport']) {
      const x = await call(PATH, { token: ops[r]! });
      expect([x.status, x.json?.success, x.json?.code], r).toEqual([403, false, 'FORBIDDEN']);
    }
    const member = await newMember(0);
    expect((await call(PATH, { token: member.token })).status).toBe(401);
    expect((await call(PATH)).status).toBe(401);
    // DEMO's operator token on another merchant's host is no operator there; the other merchant's list has none of DEMO's.
    expect((await call(PATH, { token: ops.poadmin!, headers: VN })).status).toBe(401);
    const vnList = await call<{ list: Array<{ id: string }> }>(PATH, { token: ops.povn!, headers: VN });
    expect(vnList.status, vnList.text).toBe(200);
    expect(vnList.json!.value!.list.map((p) => p.id)).not.toContain(created.json!.value!.id);
    expect((await put(created.json!.value!.id, body(), ops.povn!)).status).toBe(401);
  });

  it('create: administrator and content; finance, risk and members refused; bad bodies 400 with nothing written; audited', async () => {
    const n0 = (await opsList()).length;
    for (const r of ['pofinance', 'porisk', 'posupport']) expect((await call(PATH, { token: ops[r]!, body: body() })).status, r).toBe(403);
    expect((await call(PATH, { body: body() })).status).toBe(401);
    for (const bad of [
      body({ category: 'bogus' }), body({ title: { EN: 'only EN' } }), body({ rewardAmount: -1 }), body({ rewardAmount: 1.5 }),
      body({ endsAt: at(-2 * hour) }), body({ kind: 'raffle' }), body({ extra: 1 }), body({ startsAt: 'tomorrow' }),
    ]) {
      const r = await call(PATH, { token: ops.pocontent!, body: bad });
      expect([r.status, r.json?.success, r.json?.code], JSON.stringify(bad)).toEqual([400, false, 'VALIDATION']);
    }
    expect((await opsList()).length).toBe(n0);
    const r = await call<TOpsPromotion>(PATH, { token: ops.pocontent!, body: body({ wageringBonusX: 3, weights: { FISH: 50 } }) });
    expect(r.status, r.text).toBe(200);
    const p = ZOpsPromotion.parse(r.json!.value);
    expect(p).toMatchObject({ category: 'limited', kind: 'request', enabled: true, rewardAmount: 10_00, wageringBonusX: 3, weights: { FISH: 50 }, joins: 0 });
    expect((await opsList()).find((x) => x.id === p.id)).toEqual(p);
    expect((await call(PATH, { token: ops.poadmin!, body: body() })).status).toBe(200);
    expect((await opsList()).length).toBe(n0 + 2);
    expect(await auditOf(p.id)).toEqual([{ action: 'promotion.create', operator_username: 'pocontent', before: null, after: expect.objectContaining({ title: { EN: 'Ops check', TY: 'Pagsusuri ng ops' } }) }]);
  });

  it('edit: content and administrator change texts and terms; finance 403; unknown or malformed id 404; bad body 400 and a kind change 409, nothing changed; audited before and after', async () => {
    const p = ZOpsPromotion.parse((await call(PATH, { token: ops.poadmin!, body: body() })).json!.value);
    const edited = body({ category: 'vip', title: { EN: 'Edited', TY: 'Binago' }, rules: { EN: 'New rules', TY: 'Bagong tuntunin' }, rewardAmount: 25_00 });
    expect((await put(p.id, edited, ops.pofinance!)).status).toBe(403);
    expect((await put(p.id, edited, ops.porisk!)).status).toBe(403);
    const member = await newMember(0);
    expect((await put(p.id, edited, member.token)).status).toBe(401);
    expect((await put('999999999', edited)).status).toBe(404);
    expect((await put('abc', edited)).status).toBe(404);
    expect((await put(p.id, { ...edited, category: 'bogus' })).status).toBe(400);
    // Rates keyed by a game type the catalogue does not have (SLOTS for RNG) would never pay.
    for (const bad of [{ rebateBps: { SLOTS: 500 } }, { weights: { CASINO: 10 } }, { weights: { fish: 10 } }]) {
      const r = await put(p.id, { ...edited, ...bad });
      expect([r.status, r.json?.code], JSON.stringify(bad)).toEqual([400, 'VALIDATION']);
      expect(JSON.stringify((r.json as { details?: unknown } | null)?.details)).toContain('Not a game type');
    }
    const kind = await put(p.id, { ...edited, kind: 'signup' });
    expect([kind.status, kind.json?.code]).toEqual([409, 'INVALID_STATE']);
    expect((await opsList()).find((x) => x.id === p.id)).toEqual(p);
    const ok = await put(p.id, edited);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json!.value).toMatchObject({ id: p.id, category: 'vip', title: { EN: 'Edited', TY: 'Binago' }, rewardAmount: 25_00 });
    expect((await opsList(ops.pofinance!)).find((x) => x.id === p.id)).toMatchObject({ category: 'vip', rewardAmount: 25_00 });
    const player = await newMember(0);
    expect(await playerStatus(player.token, p.id)).toMatchObject({ title: 'Binago', status: 'join' });
    const audit = await auditOf(p.id);
    expect(audit.map((a) => [a.action, a.operator_username])).toEqual([['promotion.create', 'poadmin'], ['promotion.update', 'pocontent']]);
    expect([audit[1]!.before!.title!.EN, audit[1]!.after!.title!.EN]).toEqual(['Ops check', 'Edited']);
  });

  it('status: disable takes it off the players\' list (and refuses their join), enable reopens it, a future start shows coming soon, a past end closes it; each audited', async () => {
    const p = ZOpsPromotion.parse((await call(PATH, { token: ops.pocontent!, body: body() })).json!.value);
    const player = await newMember(0);
    expect(await playerStatus(player.token, p.id)).toMatchObject({ status: 'join' });
    const off = await put(p.id, body({ enabled: false }));
    expect(off.json!.value).toMatchObject({ enabled: false });
    // A disabled promotion that has started is off the players' list, and its join is refused.
    expect(await playerStatus(player.token, p.id)).toBeUndefined();
    const join = await call('/wps/relay/MCSFE_signUpPromotionJoin', { token: player.token, body: { promotionId: Number(p.id) } });
    expect([join.status, join.json?.code]).toEqual([403, 'FORBIDDEN']);
    expect((await put(p.id, body({ enabled: true }), ops.poadmin!)).json!.value).toMatchObject({ enabled: true });
    expect(await playerStatus(player.token, p.id)).toMatchObject({ status: 'join' });
    expect((await put(p.id, body({ startsAt: at(24 * hour) }))).status).toBe(200);
    expect(await playerStatus(player.token, p.id)).toMatchObject({ status: 'coming_soon' });
    // ... and disabled before it starts, it is withdrawn: off the list too (it was shown as coming soon)
    expect((await put(p.id, body({ startsAt: at(24 * hour), enabled: false }))).status).toBe(200);
    expect(await playerStatus(player.token, p.id)).toBeUndefined();
    expect((await put(p.id, body({ startsAt: at(-48 * hour), endsAt: at(-24 * hour) }))).status).toBe(200);
    expect(await playerStatus(player.token, p.id)).toMatchObject({ status: 'closed' });
    // Finance may read it but not switch it.
    expect((await put(p.id, body({ enabled: false }), ops.pofinance!)).status).toBe(403);
    expect((await opsList(ops.pofinance!)).find((x) => x.id === p.id)).toMatchObject({ enabled: true });
    const audit = await auditOf(p.id);
    expect(audit.map((a) => a.action)).toEqual(['promotion.create', 'promotion.update', 'promotion.update', 'promotion.update', 'promotion.update', 'promotion.update']);
    expect(audit.slice(1, 3).map((a) => [a.before!.enabled, a.after!.enabled])).toEqual([[true, false], [false, true]]);
  });
});
