import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { SIM_SIGNATURE_HEADER } from '@portal/contracts/api/cashier';
import { DEMO_VN } from '../../db/seed.ts';
import { api, startTestPortal, type TestPortal } from '../../testing/test-portal.ts';
import { checkLedger, transfer } from '../wallet/ledger.ts';
import { signSim } from './payment-provider.ts';

/**
 * The cashier in the merchant's currency: LuckyDong (DEMOVN, VND, exponent 0: amounts are whole đồng)
 * lists Vietnam's channels with ranges in đồng and formats its messages without decimals, while the
 * Philippine merchant keeps GCash, Maya and InstaPay in centavos.
 */
let t: TestPortal;
const VN = { host: DEMO_VN.host };
const rid = () => `req_${randomBytes(6).toString('hex')}`;

beforeAll(async () => {
  t = await startTestPortal();
});
afterAll(async () => {
  expect(await checkLedger(t.portal.db)).toEqual([]);
  await t?.stop();
});

async function session(headers: Record<string, string> = {}) {
  const account = `cc${randomBytes(5).toString('hex')}`;
  const r = await api<{ memberId: number; token: string }>(t.url, '/wps/dev/sessions', { body: { account, type: 0 }, headers });
  expect(r.status, r.text).toBe(200);
  return { account, memberId: r.json!.value!.memberId, token: r.json!.value!.token };
}
type Channel = { code: string; kind: string; minAmount: number; maxAmount: number };

describe('cashier per currency', () => {
  it("the VN merchant lists Vietnam's channels, ranges in đồng; the PH merchant keeps its own in centavos", async () => {
    const vn = await session(VN);
    const r = await api<{ list: Channel[] }>(t.url, '/wps/v2/deposit/channels', { token: vn.token, headers: VN });
    expect(r.status, r.text).toBe(200);
    const sim = r.json!.value!.list.filter((c) => c.code !== 'BANK');
    expect(sim.map((c) => [c.code, c.kind])).toEqual([['VIETQR', 'vietqr'], ['MOMO', 'momo'], ['ZALOPAY', 'zalopay'], ['NAPAS', 'napas']]);
    // ₱100 to ₱50,000 at ₱1 = ₫500: ₫50,000 to ₫25,000,000 (whole đồng), never ₫100 or 100.00.
    for (const c of sim) expect([c.minAmount, c.maxAmount]).toEqual([50_000, 25_000_000]);

    const ph = await session();
    const p = await api<{ list: Channel[] }>(t.url, '/wps/v2/deposit/channels', { token: ph.token });
    const phSim = p.json!.value!.list.filter((c) => c.code !== 'BANK');
    expect(phSim.map((c) => c.code)).toEqual(['GCASH', 'MAYA', 'INSTAPAY']);
    for (const c of phSim) expect([c.minAmount, c.maxAmount]).toEqual([100_00, 50_000_00]);
  });

  it('withdrawal limits are in đồng on the VN merchant and unchanged in centavos on the PH one', async () => {
    const vn = await session(VN);
    const l = await api<{ min: number; max: number; dailyMax: number; currency: string }>(t.url, '/wps/v2/withdrawals/limits', { token: vn.token, headers: VN });
    expect(l.json!.value).toMatchObject({ currency: 'VND', min: 50_000, max: 25_000_000, dailyMax: 50_000_000 });
    const ph = await session();
    const p = await api<{ min: number; max: number; dailyMax: number; currency: string }>(t.url, '/wps/v2/withdrawals/limits', { token: ph.token });
    expect(p.json!.value).toMatchObject({ currency: 'PHP', min: 100_00, max: 50_000_00, dailyMax: 100_000_00 });
  });

  it('a VND deposit outside the range is refused with the range in đồng; a paid one says ₫100,000 in its message', async () => {
    const vn = await session(VN);
    const low = await api(t.url, '/wps/v2/deposit/orders', { token: vn.token, headers: VN, body: { channelCode: 'MOMO', amount: 100_00, requestId: rid() } });
    expect([low.status, low.json?.code, low.json?.value]).toEqual([400, 'AMOUNT_OUT_OF_RANGE', { min: 50_000, max: 25_000_000 }]);
    const ok = await api<{ id: string; currency: string; amount: number }>(t.url, '/wps/v2/deposit/orders', { token: vn.token, headers: VN, body: { channelCode: 'MOMO', amount: 100_000, requestId: rid() } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json!.value).toMatchObject({ currency: 'VND', amount: 100_000 });
    const d = (await t.portal.db.query<{ provider_order_id: string; reference: string }>('SELECT provider_order_id, reference FROM deposits WHERE id = $1', [Number(ok.json!.value!.id)])).rows[0]!;
    const raw = JSON.stringify({ orderId: d.provider_order_id, merchantOrderId: d.reference, status: 'paid', amount: 100_000, currency: 'VND', at: new Date().toISOString() });
    const cb = await fetch(`${t.url}/wps/payment/callback/sim`, { method: 'POST', headers: { 'content-type': 'application/json', [SIM_SIGNATURE_HEADER]: signSim(t.portal.cashier.simSecret!, raw) }, body: raw });
    expect(cb.status).toBe(200);
    const msg = (await t.portal.db.query<{ params: { amount: string } }>(`SELECT params FROM messages WHERE member_id = $1 AND kind = 'deposit_credited'`, [vn.memberId])).rows[0];
    expect(msg?.params.amount).toBe('₫100,000');
  });

  it('house games offer stakes and play money in đồng on the VN merchant (₫500 a spin at least, not ₫1)', async () => {
    const vn = await api<{ stakes: number[]; balance: number; currency: string }>(t.url, '/house/api/freeplay', { body: { game: 'SLOT1' }, headers: VN });
    expect(vn.status, vn.text).toBe(200);
    expect(vn.json!.value).toMatchObject({ currency: 'VND', stakes: [500, 2_500, 5_000, 25_000, 50_000], balance: 1_000_000 });
    const ph = await api<{ stakes: number[]; balance: number; currency: string }>(t.url, '/house/api/freeplay', { body: { game: 'SLOT1' } });
    expect(ph.json!.value).toMatchObject({ currency: 'PHP', stakes: [100, 500, 1_000, 5_000, 10_000], balance: 200_000 });
    // A real VND player's spin at a peso stake is refused; at a đồng stake it plays.
    const player = await session(VN);
    await t.portal.db.tx((tx) => transfer(tx, { merchant: DEMO_VN.code, currency: 'VND', key: `test-fund:${player.memberId}`, kind: 'deposit', debit: { system: 'deposit' }, credit: { member: player.memberId }, amount: 1_000_000 }));
    const launch = await api<{ url: string }>(t.url, '/wps/game/launchGame', { token: player.token, headers: VN, body: { nodeId: 'HOUSE-SLOT1' } });
    expect(launch.status, launch.text).toBe(200);
    const token = new URL(launch.json!.value!.url, 'http://x').searchParams.get('token')!;
    const s = await api<{ session: string; stakes: number[] }>(t.url, '/house/api/session', { body: { token, game: 'SLOT1' }, headers: VN });
    expect(s.json?.value?.stakes, s.text).toEqual([500, 2_500, 5_000, 25_000, 50_000]);
    const headers = { ...VN, 'x-house-session': s.json!.value!.session };
    const bad = await api(t.url, '/house/api/slot/spin', { body: { stake: 100 }, headers });
    expect([bad.status, bad.json?.code]).toEqual([400, 'VALIDATION']);
    const spin = await api<{ stake: number; win: number }>(t.url, '/house/api/slot/spin', { body: { stake: 500 }, headers });
    expect(spin.status, spin.text).toBe(200);
    expect(Number.isInteger(spin.json!.value!.win)).toBe(true);
  });
});
