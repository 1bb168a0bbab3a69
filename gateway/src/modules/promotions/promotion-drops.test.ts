import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  opsPromotionCalls, promotionCalls, ZOpsEnvelopeDrop, ZOpsEnvelopeDropList, ZOpsOwedRewardList, type TOpsEnvelopeDrop,
} from '@portal/contracts/api/promotions';
import { redEnvelopeCalls, type TOpenEnvelope } from '@portal/contracts/api/red-envelopes';
import { DEMO_VN } from '../../db/seed.ts';
import { startTestPortal, type TestPortal } from '../../testing/test-portal.ts';
import { apiOn, testMembers, type TestMember } from '../../testing/test-members.ts';
import { OPS_TOTP_SECRET, opsTotp } from '../../testing/ops-totp.ts';
import { checkLedger, transfer } from '../wallet/ledger.ts';
import type { Operator } from '../ops/operators.ts';
import type { BetFact } from '../engagement/bet-stream.ts';
import { ENVELOPE_EXPIRE_JOB } from '../red-envelopes/red-envelopes-service.ts';
import { PROMO_DROP_JOB, promoDropKey } from './promotion-drops.ts';

/**
 * A red envelope drop attached to a promotion (issue 14): scheduled by an operator over /ops/api, dropped
 * at its time by the job queue to the promotion's participants, once however often the job runs,
 * cancellable before it runs, audited; bad input 4xx with nothing written. And the bonus `owed` of a
 * reverted conversion (migration 062) listed for operators.
 */
let t: TestPortal;
let op: Operator;
const call = apiOn(() => t.url);
const newMember = testMembers(() => t.url, { prefix: 'pd' });
const tokens: Record<string, string> = {};
const PASSWORD = 'PromoDrop12345';
const hour = 3600_000;
const at = (ms: number) => new Date(Date.now() + ms).toISOString();
const PATH = '/ops/api/promotions';

beforeAll(async () => {
  t = await startTestPortal();
  for (const [name, roles] of [['pdadmin', ['administrator']], ['pdcontent', ['content']], ['pdfinance', ['finance']]] as const) {
    await t.portal.cashier.operators.createOperator('DEMO', name, PASSWORD, [...roles], { totpSecret: OPS_TOTP_SECRET });
    tokens[name] = (await call<{ token: string }>('/ops/api/session/login', { body: { username: name, password: PASSWORD, totp: await opsTotp(name, t.url) } })).json!.value!.token;
  }
  op = (await t.portal.cashier.operators.resolve(tokens.pdadmin!))!;
}, 300_000);
afterAll(async () => {
  if (t) expect(await checkLedger(t.portal.db)).toEqual([]);
  await t?.stop();
}, 120_000);

const newPromotion = async (merchant = 'DEMO') => {
  const p = await t.portal.promos.create(op.merchantCode === merchant ? op : { ...op, merchantCode: merchant }, merchant, {
    category: 'limited', kind: 'signup', title: { EN: 'Drop party', TY: 'Salu-salo ng sobre' }, rules: { EN: 'R', TY: 'R' }, startsAt: at(-hour), endsAt: null,
    enabled: true, requiresJoin: true, rewardAmount: 0, rewardBps: 0, rewardCap: null, minDeposit: 0, wageringBonusX: 0, wageringDepositX: 0,
    weights: {}, rebateBps: {}, bonusDays: 7, drawAt: null, winners: null,
  });
  return p.id;
};
const join = async (m: TestMember, promotionId: string) => {
  const r = await call(promotionCalls.join.path, { token: m.token, body: { promotionId } });
  expect(r.status, r.text).toBe(200);
};
const schedule = (promotionId: string, body: Record<string, unknown>, token = tokens.pdcontent!) =>
  call<TOpsEnvelopeDrop>(`${PATH}/${promotionId}/drops`, { token, body });
const terms = (over: Record<string, unknown> = {}) => ({ totalAmount: 1_000, count: 2, minShare: 100, expiresInMinutes: 30, runAt: at(hour), ...over });
const house = async () => Number((await t.portal.db.query<{ s: string }>(
  `SELECT COALESCE(sum(balance), 0)::bigint AS s FROM ledger_accounts WHERE merchant_code = 'DEMO' AND kind = 'house'`)).rows[0]!.s);
/** The promotion cost account (system 'bonus', every shard; not the members' bonus accounts): what pays a promotion's bonuses, and its drops. */
const cost = async () => Number((await t.portal.db.query<{ s: string }>(
  `SELECT COALESCE(sum(balance), 0)::bigint AS s FROM ledger_accounts WHERE merchant_code = 'DEMO' AND kind = 'bonus' AND bonus_member_id IS NULL`)).rows[0]!.s);
const money = async () => ({ house: await house(), cost: await cost() });
const dropRow = async (id: string) => (await t.portal.db.query<{ status: string; envelope_id: string | null; failure: string | null }>(
  'SELECT status, envelope_id::text, failure FROM promotion_envelope_drops WHERE id = $1', [id])).rows[0]!;
const envelopesOf = async (id: string) => (await t.portal.db.query<{ id: string; total_amount: string; audience_kind: string; audience_promotion_id: string; target_count: number; created_by: string }>(
  'SELECT id::text, total_amount, audience_kind, audience_promotion_id::text, target_count, created_by FROM red_envelopes WHERE request_id = $1', [`promo-drop:${id}`])).rows;
const auditOf = async (id: string) => (await t.portal.db.query<{ action: string; operator_username: string }>(
  `SELECT action, operator_username FROM audit_log WHERE target_type = 'promotion_drop' AND target_id = $1 ORDER BY id`, [id])).rows.map((r) => `${r.action}:${r.operator_username}`);
const makeDue = (id: string) => t.portal.db.query(`UPDATE promotion_envelope_drops SET run_at = now() - interval '1 second' WHERE id = $1`, [id]);
const openFor = async (m: TestMember) => (await call<{ list: TOpenEnvelope[] }>(redEnvelopeCalls.open.path, { token: m.token })).json?.value?.list ?? [];
const counts = async () => (await t.portal.db.query<{ drops: number; audits: number; envelopes: number }>(
  `SELECT (SELECT count(*)::int FROM promotion_envelope_drops) AS drops, (SELECT count(*)::int FROM red_envelopes) AS envelopes,
          (SELECT count(*)::int FROM audit_log WHERE target_type = 'promotion_drop') AS audits`)).rows[0]!;

describe('a promotion drops a red envelope', { timeout: 180_000 }, () => {
  it('scheduled by an operator: listed, audited, queued; at its time the job drops ONE envelope to the participants, even when it runs twice', async () => {
    const promotionId = await newPromotion();
    const [a, b, outsider] = await Promise.all([newMember(0), newMember(0), newMember(0)]);
    await join(a, promotionId);
    await join(b, promotionId);
    const before = await money();
    const r = await schedule(promotionId, terms({ message: { en: 'Thanks for joining', ty: 'Salamat sa pagsali' } }));
    expect(r.status, r.text).toBe(200);
    const d = ZOpsEnvelopeDrop.parse(r.json!.value);
    expect(d).toMatchObject({ promotionId, promotionTitle: { EN: 'Drop party', TY: 'Salu-salo ng sobre' }, totalAmount: 1_000, count: 2, status: 'scheduled', envelopeId: null, createdBy: 'pdcontent' });
    const listed = await call(opsPromotionCalls.drops.path, { token: tokens.pdfinance! });
    expect(listed.status, listed.text).toBe(200);
    expect(ZOpsEnvelopeDropList.parse(listed.json!.value).list.find((x) => x.id === d.id)?.status).toBe('scheduled');
    expect(await auditOf(d.id)).toEqual(['promotion.drop.schedule:pdcontent']);
    const key = promoDropKey(promotionId, d.id);
    expect((await t.portal.jobs.state(PROMO_DROP_JOB, key))?.state).toBe('queued');
    // Nothing moves before its time, even when the handler is called early.
    await expect(t.portal.promos.drops!.run(Number(d.id))).rejects.toThrow(/not due/);
    expect([await money(), (await dropRow(d.id)).status, (await envelopesOf(d.id)).length]).toEqual([before, 'scheduled', 0]);

    await makeDue(d.id);
    expect((await t.portal.jobs.runNow(PROMO_DROP_JOB, key)).state).toBe('done');
    const row = await dropRow(d.id);
    expect(row.status).toBe('dropped');
    const envs = await envelopesOf(d.id);
    expect(envs).toHaveLength(1);
    expect(envs[0]).toMatchObject({ id: row.envelope_id, audience_kind: 'promotion', audience_promotion_id: promotionId, target_count: 2, created_by: 'pdcontent' });
    expect(Number(envs[0]!.total_amount)).toBe(1_000);
    // Paid by the promotion cost account (as the promotion's bonuses are), not the house.
    expect(await money()).toEqual({ house: before.house, cost: before.cost - 1_000 });
    // The job again (another node, a restart): the key is done; the handler itself run again finds the drop made.
    expect((await t.portal.jobs.runNow(PROMO_DROP_JOB, key)).state).toBe('done');
    expect(await t.portal.promos.drops!.run(Number(d.id))).toBe('dropped');
    expect([await money(), (await envelopesOf(d.id)).length]).toEqual([{ house: before.house, cost: before.cost - 1_000 }, 1]);
    // The participants find it open; a player outside the promotion does not.
    expect((await openFor(a)).map((e) => e.envelopeId)).toContain(String(row.envelope_id));
    expect((await openFor(b)).map((e) => e.envelopeId)).toContain(String(row.envelope_id));
    expect((await openFor(outsider)).map((e) => e.envelopeId)).not.toContain(String(row.envelope_id));
    const audited = (await t.portal.db.query<{ operator_username: string }>(
      `SELECT operator_username FROM audit_log WHERE action = 'envelope.drop' AND target_id = $1`, [String(row.envelope_id)])).rows;
    expect(audited).toEqual([{ operator_username: 'pdcontent' }]);
    // A dropped one cannot be cancelled.
    const late = await call(`${PATH}/drops/${d.id}/cancel`, { token: tokens.pdadmin!, body: {} });
    expect([late.status, late.json?.success, late.json?.code]).toEqual([409, false, 'CONFLICT']);
    // One participant grabs; at expiry what nobody grabbed goes back to the promotion cost account, once.
    const g = await call<{ amount: number }>(redEnvelopeCalls.grab.path.replace(':id', String(row.envelope_id)), { token: a.token, body: {} });
    expect(g.status, g.text).toBe(200);
    const share = g.json!.value!.amount;
    await t.portal.db.query(`UPDATE red_envelopes SET expires_at = now() - interval '1 second' WHERE id = $1`, [row.envelope_id]);
    expect((await t.portal.jobs.runNow(ENVELOPE_EXPIRE_JOB, `envelope-expire-${row.envelope_id}`)).state).toBe('done');
    expect(await t.portal.envelopes.expire(Number(row.envelope_id))).toBeNull();
    expect(await money()).toEqual({ house: before.house, cost: before.cost - share });
    const refund = (await t.portal.db.query<{ amount: string; kind: string }>(
      `SELECT t.amount::text, a.kind FROM ledger_transfers t JOIN ledger_accounts a ON a.id = t.credit_account_id WHERE t.idempotency_key = $1`, [`envelope:${row.envelope_id}:refund`])).rows;
    expect(refund).toEqual([{ amount: String(1_000 - share), kind: 'bonus' }]);
  });

  it('cancelled before its time: nothing drops when the job comes; cancelled twice: 409; audited', async () => {
    const promotionId = await newPromotion();
    await join(await newMember(0), promotionId);
    const d = ZOpsEnvelopeDrop.parse((await schedule(promotionId, terms())).json!.value);
    const before = await money();
    const c = await call<TOpsEnvelopeDrop>(`${PATH}/drops/${d.id}/cancel`, { token: tokens.pdadmin!, body: {} });
    expect(c.status, c.text).toBe(200);
    expect(c.json!.value).toMatchObject({ id: d.id, status: 'cancelled', cancelledBy: 'pdadmin' });
    await makeDue(d.id);
    expect((await t.portal.jobs.runNow(PROMO_DROP_JOB, promoDropKey(promotionId, d.id))).state).toBe('done');
    expect([(await dropRow(d.id)).status, (await envelopesOf(d.id)).length, await money()]).toEqual(['cancelled', 0, before]);
    const again = await call(`${PATH}/drops/${d.id}/cancel`, { token: tokens.pdadmin!, body: {} });
    expect([again.status, again.json?.code]).toEqual([409, 'CONFLICT']);
    expect(await auditOf(d.id)).toEqual(['promotion.drop.schedule:pdcontent', 'promotion.drop.cancel:pdadmin']);
  });

  it('a promotion without a participant we may send to: the drop fails once with the reason, nothing moves', async () => {
    const promotionId = await newPromotion();
    const d = ZOpsEnvelopeDrop.parse((await schedule(promotionId, terms())).json!.value);
    const before = await money();
    await makeDue(d.id);
    expect((await t.portal.jobs.runNow(PROMO_DROP_JOB, promoDropKey(promotionId, d.id))).state).toBe('done');
    const row = await dropRow(d.id);
    expect(row.status).toBe('failed');
    expect(row.failure).toMatch(/VALIDATION/);
    expect([(await envelopesOf(d.id)).length, await money()]).toEqual([0, before]);
  });

  it('bad input: 4xx { success: false } and nothing written; finance may read but not schedule', async () => {
    const promotionId = await newPromotion();
    const vnPromotion = await newPromotion(DEMO_VN.code);
    const before = await counts();
    const bad: Array<[string, Record<string, unknown>, number]> = [
      [promotionId, terms({ minShare: 600 }), 400],
      [promotionId, terms({ totalAmount: 0 }), 400],
      [promotionId, terms({ count: 0 }), 400],
      [promotionId, terms({ expiresInMinutes: 0 }), 400],
      [promotionId, terms({ runAt: undefined }), 400],
      [promotionId, terms({ runAt: 'tomorrow' }), 400],
      [promotionId, terms({ runAt: at(-2 * 24 * hour) }), 400],
      [promotionId, terms({ runAt: at(400 * 24 * hour) }), 400],
      [promotionId, terms({ audience: { kind: 'all' } }), 400],
      [promotionId, terms({ totalAmount: '1000' }), 400],
      ['99999999', terms(), 404],
      [vnPromotion, terms(), 404],
      ['abc', terms(), 404],
    ];
    for (const [id, body, status] of bad) {
      const r = await schedule(id, body);
      expect([r.status, r.json?.success, typeof r.json?.code], `${id} ${JSON.stringify(body)}`).toEqual([status, false, 'string']);
    }
    const denied = await schedule(promotionId, terms(), tokens.pdfinance!);
    expect(denied.status).toBe(403);
    for (const id of ['99999999', 'abc']) expect((await call(`${PATH}/drops/${id}/cancel`, { token: tokens.pdadmin!, body: {} })).status).toBe(404);
    expect(await counts()).toEqual(before);
  });
});

describe('bonus owed (migration 062) for operators', { timeout: 180_000 }, () => {
  it('a bet rolled back after its bonus converted, with the wallet short: GET /ops/api/promotions/owed lists the reward with what is owed', async () => {
    const m = await newMember(0);
    const promo = await t.portal.promos.create(op, 'DEMO', {
      category: 'special', kind: 'request', title: { EN: 'Owed check', TY: 'Suri ng utang' }, rules: { EN: 'R', TY: 'R' }, startsAt: at(-hour), endsAt: null,
      enabled: true, requiresJoin: false, rewardAmount: 500, rewardBps: 0, rewardCap: null, minDeposit: 0, wageringBonusX: 1, wageringDepositX: 0,
      weights: {}, rebateBps: {}, bonusDays: 7, drawAt: null, winners: null,
    });
    const req = await t.portal.promos.requestReward('DEMO', { memberId: m.memberId, account: m.account }, Number(promo.id), '', 'EN');
    await t.portal.promos.decide(op, 'DEMO', Number(req.reward.id), { approve: true, reason: '' });
    const fact = (kind: BetFact['fact'], streamId: number): BetFact => ({
      streamId, fact: kind, merchantCode: 'DEMO', memberId: m.memberId, vendor: 'OWED', transactionId: `owed-${m.memberId}`, roundId: `owed-${m.memberId}`,
      gameCode: null, gameType: 'RNG', amount: 500, placedAt: new Date(), capturedAt: new Date(),
    });
    const base = 2e9 + m.memberId * 10;
    // The bet meets the wagering: 500 converts to the wallet; the player spends 300 of it; the bet is rolled back.
    await t.portal.db.tx((tx) => t.portal.promos.consumer.handle(tx, [fact('bet', base + 1)]));
    await t.portal.db.tx((tx) => transfer(tx, { merchant: 'DEMO', currency: 'PHP', key: `owed-spend-${m.memberId}`, kind: 'test.spend', debit: { member: m.memberId }, credit: { system: 'withdrawal' }, amount: 300 }));
    await t.portal.db.tx((tx) => t.portal.promos.consumer.handle(tx, [fact('bet_rolled_back', base + 2)]));

    const r = await call(opsPromotionCalls.owed.path, { token: tokens.pdfinance! });
    expect(r.status, r.text).toBe(200);
    const v = ZOpsOwedRewardList.parse(r.json!.value);
    const row = v.list.find((x) => x.id === req.reward.id);
    expect(row).toMatchObject({ promotionId: promo.id, promotionTitle: { EN: 'Owed check', TY: 'Suri ng utang' }, memberId: m.memberId, account: m.account, amount: 500, owed: 300 });
    expect(v.total).toBeGreaterThanOrEqual(1);
    expect([v.pageNo, v.pageSize]).toEqual([1, 20]);
    // Only rewards with something owed are listed.
    expect(v.list.every((x) => x.owed > 0)).toBe(true);
    // The player's bonus details say it too (it read a bonus balance of 200 beside an amount of 500, unexplained).
    const mine = await call<{ list: Array<{ id: string; amount: number; owed: number }>; bonusBalance: number }>(`${promotionCalls.rewards.path}?language=EN`, { token: m.token });
    expect(mine.json!.value!.list.find((x) => x.id === req.reward.id)).toMatchObject({ amount: 500, owed: 300 });
    expect(mine.json!.value!.bonusBalance).toBe(200);
    const other = await t.portal.db.query<{ id: string }>(`SELECT id::text FROM promotion_rewards WHERE merchant_code = 'DEMO' AND owed = 0 LIMIT 1`);
    if (other.rows[0]) expect(v.list.map((x) => x.id)).not.toContain(other.rows[0].id);
  });

  it('is paged (pageNo, pageSize, total, newest first); a bad page is a 400 with nothing listed', async () => {
    const owedNow = async () => (await t.portal.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM promotion_rewards WHERE merchant_code = 'DEMO' AND owed > 0`)).rows[0]!.n;
    // Three more owed rewards, written directly (the test above shows how one comes about).
    const promo = await t.portal.promos.create(op, 'DEMO', {
      category: 'special', kind: 'request', title: { EN: 'Owed pages', TY: 'Mga pahina ng utang' }, rules: { EN: 'R', TY: 'R' }, startsAt: at(-hour), endsAt: null,
      enabled: true, requiresJoin: false, rewardAmount: 500, rewardBps: 0, rewardCap: null, minDeposit: 0, wageringBonusX: 1, wageringDepositX: 0,
      weights: {}, rebateBps: {}, bonusDays: 7, drawAt: null, winners: null,
    });
    for (let i = 0; i < 3; i++) {
      const m = await newMember(0);
      const req = await t.portal.promos.requestReward('DEMO', { memberId: m.memberId, account: m.account }, Number(promo.id), '', 'EN');
      await t.portal.db.query(`UPDATE promotion_rewards SET amount = 500, owed = $2 WHERE id = $1`, [req.reward.id, 100 + i]);
    }
    const total = await owedNow();
    expect(total).toBeGreaterThanOrEqual(3);
    const page = async (q: string) => {
      const r = await call(`${opsPromotionCalls.owed.path}${q}`, { token: tokens.pdfinance! });
      expect(r.status, r.text).toBe(200);
      return ZOpsOwedRewardList.parse(r.json!.value);
    };
    const first = await page('?pageNo=1&pageSize=2');
    const second = await page('?pageNo=2&pageSize=2');
    expect([first.pageNo, first.pageSize, first.total, first.list.length]).toEqual([1, 2, total, 2]);
    expect(second.total).toBe(total);
    expect(second.list.length).toBe(Math.min(2, total - 2));
    // Newest first, no row on two pages.
    const ids = [...first.list, ...second.list].map((x) => Number(x.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(new Set(ids).size).toBe(ids.length);
    expect(first.list[0]).toMatchObject({ promotionTitle: { EN: 'Owed pages', TY: 'Mga pahina ng utang' }, owed: 102 });
    // Past the end: an empty page, the total still right.
    const beyond = await page('?pageNo=9999&pageSize=100');
    expect([beyond.list.length, beyond.total]).toEqual([0, total]);
    for (const q of ['?pageNo=0', '?pageSize=0', '?pageSize=101', '?pageNo=10001', '?pageNo=x', '?pageNo=1.5', '?cursor=1', '?pageSize=-1']) {
      const r = await call(`${opsPromotionCalls.owed.path}${q}`, { token: tokens.pdfinance! });
      expect([r.status, r.json?.success, r.json?.code], q).toEqual([400, false, 'VALIDATION']);
    }
  });
});
