import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { SIM_SIGNATURE_HEADER } from '@portal/contracts/api/cashier';
import { connectSocket, startTestPortal, waitFor, type TestPortal, type TestSocket } from '../../testing/test-portal.ts';
import { apiOn, testMembers } from '../../testing/test-members.ts';
import { checkLedger, transfer } from '../wallet/ledger.ts';
import { checkCashier } from './invariants.ts';
import { signSim } from './payment-provider.ts';
import { OPS_TOTP_SECRET, enrolOperatorTotp, opsTotp } from '../../testing/ops-totp.ts';

let t: TestPortal;
let ops: string;
const sockets: TestSocket[] = [];
beforeAll(async () => {
  t = await startTestPortal();
  await t.portal.cashier.operators.createOperator('DEMO', 'boss', 'Boss12345678', ['administrator'], { totpSecret: OPS_TOTP_SECRET });
  await t.portal.cashier.operators.createOperator('DEMO', 'reader', 'Reader12345678', ['risk'], { totpSecret: OPS_TOTP_SECRET });
  ops = (await call<{ token: string }>('/ops/api/session/login', { body: { username: 'boss', password: 'Boss12345678', totp: await opsTotp('boss', t.url) } })).json!.value!.token;
});
afterAll(async () => {
  for (const s of sockets) s.close();
  // Every test leaves the books and the withdrawals consistent.
  expect(await checkLedger(t.portal.db)).toEqual([]);
  expect(await checkCashier(t.portal.db)).toEqual([]);
  await t.stop();
});

type Json = Record<string, unknown>;
const call = apiOn(() => t.url);
const rid = () => `req_${randomBytes(6).toString('hex')}`;
let n = 0;
/** A member with a login password and a session; `fund` credits it through the ledger. */
const newMember = testMembers(() => t.url, { account: () => `cs${Date.now().toString(36)}${n++}` });
async function member(opts: { type?: number; parent?: string; fund?: number; withdrawPassword?: string } = {}) {
  const { account, memberId, token } = await newMember(opts.type ?? 0, opts.parent ? { account: opts.parent } : undefined);
  if (opts.fund) {
    await t.portal.db.tx((tx) => transfer(tx, { merchant: 'DEMO', currency: 'PHP', key: `test-fund:${memberId}`, kind: 'deposit', debit: { system: 'deposit' }, credit: { member: memberId }, amount: opts.fund! }));
  }
  if (opts.withdrawPassword) {
    const r = await call('/wps/member/withdraw-password', { token, body: { loginPassword: 'login12345', newWithdrawPassword: opts.withdrawPassword, confirmNewWithdrawPassword: opts.withdrawPassword } });
    expect(r.status).toBe(200);
  }
  return { account, memberId, token };
}
async function balance(token: string) {
  return (await call<{ balance: number; available: number; held: number; currencySymbol: string; currency: string }>('/wps/v2/wallets/balance', { token })).json!.value!;
}
async function socketOf(token: string) {
  const s = await connectSocket(t.url, { token });
  sockets.push(s);
  return s;
}
function opsCall<T = Json>(path: string, init: { method?: string; body?: unknown; token?: string } = {}) {
  return call<T>(`/ops/api${path}`, { ...init, token: init.token ?? ops });
}
/** A signed simulator notification, sent as the provider would. */
async function notify(body: Json, secret = t.portal.cashier.simSecret!) {
  const raw = JSON.stringify(body);
  const res = await fetch(`${t.url}/wps/payment/callback/sim`, { method: 'POST', headers: { 'content-type': 'application/json', [SIM_SIGNATURE_HEADER]: signSim(secret, raw) }, body: raw });
  return { status: res.status, json: (await res.json()) as { success: boolean; code?: string; value?: { outcome: string; status: string } } };
}
async function simOrder(depositId: string) {
  const r = await t.portal.db.query<{ provider_order_id: string; reference: string; amount: number }>('SELECT provider_order_id, reference, amount FROM deposits WHERE id = $1', [Number(depositId)]);
  const d = r.rows[0]!;
  return (status: 'paid' | 'failed') => ({ orderId: d.provider_order_id, merchantOrderId: d.reference, status, amount: d.amount, currency: 'PHP', at: new Date().toISOString() });
}
// A real 1x1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
async function confirm(token: string, id: string, fields: Record<string, string>, files: Array<{ data: Buffer; name: string; type: string }> = []) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) form.append('proof', new Blob([new Uint8Array(f.data)], { type: f.type }), f.name);
  const res = await fetch(`${t.url}/wps/v2/withdrawals/${id}/confirm`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  return { status: res.status, json: (await res.json()) as { success: boolean; code?: string; value?: Json } };
}

describe('deposits through the payment simulator', () => {
  it('creates an order, pays on the pay page, and the signed callback credits once, live on the socket', async () => {
    const m = await member();
    const socket = await socketOf(m.token);
    const channels = await call<{ list: Array<{ code: string; provider: string }> }>('/wps/v2/deposit/channels', { token: m.token });
    expect(channels.json!.value!.list.map((c) => c.code)).toEqual(expect.arrayContaining(['GCASH', 'MAYA', 'INSTAPAY', 'BANK']));
    const requestId = rid();
    const order = await call<{ id: string; payUrl: string; status: string }>('/wps/v2/deposit/orders', { token: m.token, body: { channelCode: 'GCASH', amount: 500_00, requestId } });
    expect(order.json?.value).toMatchObject({ status: 'pending', payUrl: expect.stringMatching(/^\/pay\/sim\/SIM/) });
    // The same request again is the same order.
    const again = await call<{ id: string }>('/wps/v2/deposit/orders', { token: m.token, body: { channelCode: 'GCASH', amount: 500_00, requestId } });
    expect(again.json?.value?.id).toBe(order.json!.value!.id);
    expect((await call('/wps/v2/deposit/orders', { token: m.token, body: { channelCode: 'GCASH', amount: 600_00, requestId } })).json?.code).toBe('IDEMPOTENCY_MISMATCH');

    const page = await fetch(t.url + order.json!.value!.payUrl);
    const html = await page.text();
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(html).toContain('₱500.00');
    const action = /<form method="post" action="([^"]+)"/.exec(html)![1]!;
    const paid = await fetch(t.url + action, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'outcome=paid' });
    expect(await paid.text()).toContain('Payment successful');
    // The answer page reloaded (the browser posts the form again): already paid, with the way back, nothing more.
    const reloaded = await fetch(t.url + action, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'outcome=paid' });
    expect(reloaded.status).toBe(409);
    expect(await reloaded.text()).toMatch(/Already paid[\s\S]*<a href=/);

    expect(await balance(m.token)).toMatchObject({ balance: 500_00, available: 500_00, held: 0, currency: 'PHP', currencySymbol: '₱' });
    await waitFor(() => socket.received.find((e) => e.type === 'balance.changed' && (e.payload as { delta: number }).delta === 500_00), 'balance.changed');
    await waitFor(() => socket.received.find((e) => e.type === 'message.received' && (e.payload as { kind: string }).kind === 'deposit_credited'), 'message');
    const dep = await call<{ status: string; payUrl: string | null }>(`/wps/v2/deposit/orders/${order.json!.value!.id}`, { token: m.token });
    expect(dep.json?.value).toMatchObject({ status: 'paid', payUrl: null });

    // The same signed notification replayed 5 times at once: nothing more is credited.
    const body = (await simOrder(order.json!.value!.id))('paid');
    const replays = await Promise.all(Array.from({ length: 5 }, () => notify(body)));
    expect(replays.map((r) => r.json.value?.outcome)).toEqual(Array(5).fill('duplicate'));
    expect((await balance(m.token)).balance).toBe(500_00);
  });

  it('credits a first notification sent 5 times concurrently exactly once; a failed after paid changes nothing', async () => {
    const m = await member();
    const order = await call<{ id: string }>('/wps/v2/deposit/orders', { token: m.token, body: { channelCode: 'MAYA', amount: 250_00, requestId: rid() } });
    const n = await simOrder(order.json!.value!.id);
    const paid = n('paid');
    const results = await Promise.all(Array.from({ length: 5 }, () => notify(paid)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.filter((r) => r.json.value?.outcome === 'credited')).toHaveLength(1);
    expect(results.filter((r) => r.json.value?.outcome === 'duplicate')).toHaveLength(4);
    expect((await balance(m.token)).balance).toBe(250_00);
    const late = await notify(n('failed'));
    expect(late.json.value).toMatchObject({ outcome: 'ignored', status: 'paid' });
    expect((await balance(m.token)).balance).toBe(250_00);
    const credits = await t.portal.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ledger_transfers WHERE idempotency_key = $1`, [`deposit:sim:${paid.orderId}`]);
    expect(credits.rows[0]!.n).toBe(1);
  });

  it('a provider failure is not final: a later paid for the same order credits it (with both messages)', async () => {
    const m = await member();
    const order = await call<{ id: string }>('/wps/v2/deposit/orders', { token: m.token, body: { channelCode: 'INSTAPAY', amount: 300_00, requestId: rid() } });
    const n = await simOrder(order.json!.value!.id);
    expect((await notify(n('failed'))).json.value).toMatchObject({ outcome: 'failed', status: 'failed' });
    expect((await notify(n('failed'))).json.value?.outcome).toBe('duplicate');
    expect((await balance(m.token)).balance).toBe(0);
    expect((await notify(n('paid'))).json.value).toMatchObject({ outcome: 'credited', status: 'paid' });
    expect((await balance(m.token)).balance).toBe(300_00);
    const msgs = await call<{ list: Array<{ kind: string; title: string; params: Json }>; unreadCount: number }>('/wps/v2/messages', { token: m.token });
    expect(msgs.json!.value!.list.map((x) => x.kind)).toEqual(['deposit_credited', 'deposit_failed']);
    expect(msgs.json!.value!.list[0]).toMatchObject({ title: 'message_deposit_credited', params: { amount: '₱300.00' } });
  });

  it('an order left unpaid expires (job): no Pay link, no longer counted by a deposit limit, the pay page refuses it; a late paid still credits it', async () => {
    const m = await member();
    expect((await call('/wps/v2/rg/limits', { token: m.token, body: { kind: 'deposit', period: 'day', amount: 500_00 } })).status).toBe(200);
    const order = await call<{ id: string; payUrl: string }>('/wps/v2/deposit/orders', { token: m.token, body: { channelCode: 'GCASH', amount: 400_00, requestId: rid() } });
    expect(order.status, order.text).toBe(200);
    const id = order.json!.value!.id;
    // The pending order counts against the limit: 200.00 more is over it.
    const over = await call('/wps/v2/deposit/orders', { token: m.token, body: { channelCode: 'MAYA', amount: 200_00, requestId: rid() } });
    expect([over.status, over.json?.code]).toEqual([403, 'RG_LIMIT_REACHED']);
    // Not due yet: the job leaves it.
    await t.portal.cashier.deposits.runExpire();
    expect((await call<{ status: string }>(`/wps/v2/deposit/orders/${id}`, { token: m.token })).json!.value!.status).toBe('pending');
    // 30 minutes on (its order, and the simulator's own order, made that long ago).
    const dep = (await t.portal.db.query<{ provider_order_id: string }>(`UPDATE deposits SET created_at = now() - interval '31 minutes' WHERE id = $1 RETURNING provider_order_id`, [Number(id)])).rows[0]!;
    await t.portal.db.query(`UPDATE payment_sim_orders SET created_at = now() - interval '31 minutes' WHERE id = $1`, [dep.provider_order_id]);
    expect(await t.portal.cashier.deposits.runExpire()).toBeGreaterThanOrEqual(1);
    expect((await call<{ status: string; payUrl: string | null }>(`/wps/v2/deposit/orders/${id}`, { token: m.token })).json!.value).toMatchObject({ status: 'expired', payUrl: null });
    const msgs = await call<{ list: Array<{ kind: string; params: Json }> }>('/wps/v2/messages', { token: m.token });
    expect(msgs.json!.value!.list[0]).toMatchObject({ kind: 'deposit_expired', params: { amount: '₱400.00' } });
    // No longer counted: 200.00 more fits the limit.
    expect((await call('/wps/v2/deposit/orders', { token: m.token, body: { channelCode: 'MAYA', amount: 200_00, requestId: rid() } })).status).toBe(200);
    // The simulator (the provider) has let its order lapse too: Pay is refused, nothing credited.
    const page = await fetch(`${t.url}${order.json!.value!.payUrl}`);
    expect([page.status, /expired/.test(await page.text())]).toEqual([410, true]);
    const post = await fetch(`${t.url}${order.json!.value!.payUrl}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'outcome=paid' });
    expect(post.status).toBe(410);
    expect((await balance(m.token)).balance).toBe(0);
    // A real provider's late 'paid' is the player's money arriving after all: credited once; a late 'failed' changes nothing.
    const n = await simOrder(id);
    expect((await notify(n('failed'))).json.value).toMatchObject({ outcome: 'ignored', status: 'expired' });
    expect((await notify(n('paid'))).json.value).toMatchObject({ outcome: 'credited', status: 'paid' });
    expect((await balance(m.token)).balance).toBe(400_00);
    // A manual bank deposit waits for its operator: never expired by the job.
    const m2 = await member();
    const bank = await call<{ id: string }>('/wps/v2/deposit/orders', { token: m2.token, body: { channelCode: 'BANK', amount: 500_00, requestId: rid(), payerReference: 'REF123' } });
    expect(bank.status, bank.text).toBe(200);
    await t.portal.db.query(`UPDATE deposits SET created_at = now() - interval '2 days' WHERE id = $1`, [Number(bank.json!.value!.id)]);
    await t.portal.cashier.deposits.runExpire();
    expect((await call<{ status: string }>(`/wps/v2/deposit/orders/${bank.json!.value!.id}`, { token: m2.token })).json!.value!.status).toBe('pending');
  });

  it("an order paid at the provider whose callback was lost is credited by the job's order query, once; Pay again sends the callback again", async () => {
    const m = await member();
    const order = await call<{ id: string; payUrl: string }>('/wps/v2/deposit/orders', { token: m.token, body: { channelCode: 'GCASH', amount: 250_00, requestId: rid() } });
    const id = Number(order.json!.value!.id);
    // Paid at the provider, its callback never arrives (the node that would take it was killed).
    const dep = (await t.portal.db.query<{ provider_order_id: string }>('SELECT provider_order_id FROM deposits WHERE id = $1', [id])).rows[0]!;
    await t.portal.db.query(`UPDATE payment_sim_orders SET status = 'paid' WHERE id = $1`, [dep.provider_order_id]);
    // Under a minute old: the job leaves it to its callback.
    expect(await t.portal.cashier.deposits.runReconcile()).toBe(0);
    await t.portal.db.query(`UPDATE deposits SET created_at = now() - interval '2 minutes' WHERE id = $1`, [id]);
    expect(await t.portal.cashier.deposits.runReconcile()).toBe(1);
    expect((await balance(m.token)).balance).toBe(250_00);
    expect((await call<{ status: string }>(`/wps/v2/deposit/orders/${id}`, { token: m.token })).json!.value!.status).toBe('paid');
    // Again, and the callback arriving late: nothing more.
    expect(await t.portal.cashier.deposits.runReconcile()).toBe(0);
    expect((await notify((await simOrder(String(id)))('paid'))).json.value?.outcome).toBe('duplicate');
    expect((await balance(m.token)).balance).toBe(250_00);

    // Pay pressed again on an order the provider holds as paid sends its callback again (it said "Already paid" and nothing else).
    const m2 = await member();
    const o2 = await call<{ id: string; payUrl: string }>('/wps/v2/deposit/orders', { token: m2.token, body: { channelCode: 'GCASH', amount: 120_00, requestId: rid() } });
    const d2 = (await t.portal.db.query<{ provider_order_id: string }>('SELECT provider_order_id FROM deposits WHERE id = $1', [Number(o2.json!.value!.id)])).rows[0]!;
    await t.portal.db.query(`UPDATE payment_sim_orders SET status = 'paid' WHERE id = $1`, [d2.provider_order_id]);
    const again = await fetch(`${t.url}${o2.json!.value!.payUrl}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'outcome=paid' });
    expect(again.status).toBe(409);
    expect((await balance(m2.token)).balance).toBe(120_00);
  });

  it('refuses a bad signature, a tampered body and an unsigned call, and logs them', async () => {
    const m = await member();
    const order = await call<{ id: string }>('/wps/v2/deposit/orders', { token: m.token, body: { channelCode: 'GCASH', amount: 200_00, requestId: rid() } });
    const body = (await simOrder(order.json!.value!.id))('paid');
    const wrong = await notify(body, 'not-the-secret-at-all');
    expect(wrong.status).toBe(401);
    expect(wrong.json).toMatchObject({ success: false, code: 'SIGNATURE_INVALID' });
    const raw = JSON.stringify(body);
    const tampered = await fetch(`${t.url}/wps/payment/callback/sim`, {
      method: 'POST', headers: { 'content-type': 'application/json', [SIM_SIGNATURE_HEADER]: signSim(t.portal.cashier.simSecret!, raw) }, body: raw.replace('20000', '90000'),
    });
    expect(tampered.status).toBe(401);
    const unsigned = await call('/wps/payment/callback/sim', { body });
    expect(unsigned.status).toBe(401);
    expect((await call('/wps/payment/callback/nope', { body })).status).toBe(404);
    expect((await balance(m.token)).balance).toBe(0);
    const logged = await t.portal.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM payment_callbacks WHERE NOT valid`);
    expect(logged.rows[0]!.n).toBeGreaterThanOrEqual(3);
    // Out of range amounts are refused before any order.
    expect((await call('/wps/v2/deposit/orders', { token: m.token, body: { channelCode: 'GCASH', amount: 1, requestId: rid() } })).json?.code).toBe('AMOUNT_OUT_OF_RANGE');
    // A payer reference is a bank transfer's: refused on a provider's channel, before any order.
    const before = (await t.portal.db.query<{ n: number }>('SELECT count(*)::int AS n FROM deposits WHERE member_id = $1', [m.memberId])).rows[0]!.n;
    const withRef = await call('/wps/v2/deposit/orders', { token: m.token, body: { channelCode: 'GCASH', amount: 100_00, requestId: rid(), payerReference: 'abc' } });
    expect([withRef.status, withRef.json?.code]).toEqual([400, 'VALIDATION']);
    expect((await t.portal.db.query<{ n: number }>('SELECT count(*)::int AS n FROM deposits WHERE member_id = $1', [m.memberId])).rows[0]!.n).toBe(before);
  });

  it('a manual bank deposit waits for an operator: confirm credits, reject is final', async () => {
    const m = await member();
    const order = await call<{ id: string; payUrl: string | null; status: string }>('/wps/v2/deposit/orders', { token: m.token, body: { channelCode: 'BANK', amount: 1000_00, requestId: rid(), payerReference: 'BDO-778899' } });
    expect(order.json?.value).toMatchObject({ status: 'pending', payUrl: null });
    const queue = await opsCall<{ list: Array<{ id: string; account: string; payerReference: string }> }>('/deposits?status=pending&provider=manual');
    expect(queue.json!.value!.list.find((d) => d.id === order.json!.value!.id)).toMatchObject({ account: m.account, payerReference: 'BDO-778899' });
    const ok = await opsCall<{ status: string }>(`/deposits/${order.json!.value!.id}/confirm`, { body: { note: 'seen on statement' } });
    expect(ok.json?.value?.status).toBe('paid');
    expect((await opsCall<{ status: string }>(`/deposits/${order.json!.value!.id}/confirm`, { body: {} })).json?.value?.status).toBe('paid');
    expect((await balance(m.token)).balance).toBe(1000_00);
    const other = await call<{ id: string }>('/wps/v2/deposit/orders', { token: m.token, body: { channelCode: 'BANK', amount: 700_00, requestId: rid() } });
    expect((await opsCall(`/deposits/${other.json!.value!.id}/reject`, { body: { reason: 'no matching transfer' } })).status).toBe(200);
    const late = await opsCall(`/deposits/${other.json!.value!.id}/confirm`, { body: {} });
    expect(late.status).toBe(409);
    expect(late.json?.code).toBe('INVALID_STATE');
    expect((await balance(m.token)).balance).toBe(1000_00);
    // The player's list says why (as a rejected withdrawal does); a paid order has no reason.
    const mine = await call<{ list: Array<{ id: string; status: string; reason: string | null }> }>('/wps/v2/deposit/orders', { token: m.token });
    expect(mine.json!.value!.list.find((d) => d.id === other.json!.value!.id)).toMatchObject({ status: 'rejected', reason: 'no matching transfer' });
    expect(mine.json!.value!.list.find((d) => d.id === order.json!.value!.id)).toMatchObject({ status: 'paid', reason: null });
    const audit = await opsCall<{ list: Array<{ action: string; targetId: string; operator: string; before: Json; after: Json }> }>(`/audit?targetType=deposit&targetId=${order.json!.value!.id}`);
    expect(audit.json!.value!.list).toHaveLength(1);
    expect(audit.json!.value!.list[0]).toMatchObject({ action: 'deposit.confirm', operator: 'boss', before: { status: 'pending' }, after: { status: 'paid', note: 'seen on statement' } });
  });
});

describe('withdrawals', () => {
  async function readyMember(fund = 5000_00) {
    const m = await member({ fund });
    expect((await call('/wps/member/withdraw-password', { token: m.token, body: { loginPassword: 'wrong', newWithdrawPassword: 'pay123456', confirmNewWithdrawPassword: 'pay123456' } })).json?.code).toBe('OLD_PASSWORD_WRONG');
    expect((await call('/wps/member/withdraw-password', { token: m.token, body: { loginPassword: 'login12345', newWithdrawPassword: 'pay123456', confirmNewWithdrawPassword: 'pay123456' } })).status).toBe(200);
    // Each player its own account: one bound by another player is refused (BANK_ACCOUNT_TAKEN).
    const accountNumber = `9${String(m.memberId).padStart(9, '0')}`;
    const bank = await call<{ id: string; accountNumber: string }>('/wps/v2/bank-accounts', { token: m.token, body: { bankName: 'BPI', accountName: 'Juan Dela Cruz', accountNumber, withdrawPassword: 'pay123456' } });
    expect(bank.json?.value?.accountNumber).toBe(`******${accountNumber.slice(-4)}`);
    return { ...m, bankId: bank.json!.value!.id };
  }
  const withdraw = (m: { token: string; bankId: string }, amount: number, requestId = rid(), pw = 'pay123456') =>
    call<{ id: string; status: string; autoReceiveAt: string | null; remainingAmount: number | null }>('/wps/v2/withdrawals', { token: m.token, body: { bankAccountId: m.bankId, amount, withdrawPassword: pw, requestId } });

  it("one account, one player: the same bank (any case, spaces around it) and number again is BANK_ACCOUNT_EXISTS, another player's is BANK_ACCOUNT_TAKEN", async () => {
    const a = await member({ withdrawPassword: 'bindpay1' });
    const b = await member({ withdrawPassword: 'bindpay2' });
    const bind = (who: { token: string }, bankName: string, accountNumber: string, withdrawPassword: string) =>
      call<{ id: string }>('/wps/v2/bank-accounts', { token: who.token, body: { bankName, accountName: 'Ana Cruz', accountNumber, withdrawPassword } });
    const num = `7${String(a.memberId).padStart(9, '0')}`;
    expect((await bind(a, 'BDO', num, 'bindpay1')).status).toBe(200);
    for (const name of ['BDO', 'bdo ', ' Bdo']) {
      const again = await bind(a, name, num, 'bindpay1');
      expect([again.status, again.json?.code], name).toEqual([409, 'BANK_ACCOUNT_EXISTS']);
    }
    const taken = await bind(b, 'bdo', num, 'bindpay2');
    expect([taken.status, taken.json?.code]).toEqual([409, 'BANK_ACCOUNT_TAKEN']);
    // Two players at once: one binds it.
    const c = await member({ withdrawPassword: 'bindpay3' });
    const num2 = `8${String(c.memberId).padStart(9, '0')}`;
    const both = await Promise.all([bind(b, 'GCash', num2, 'bindpay2'), bind(c, 'gcash', num2, 'bindpay3')]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const rows = await t.portal.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM member_bank_accounts WHERE account_number = ANY($1) AND removed_at IS NULL`, [[num, num2]]);
    expect(rows.rows[0]!.n).toBe(2);
    // Removed, it may be bound again (by its owner or another player).
    const mine = (await call<{ list: Array<{ id: string }> }>('/wps/v2/bank-accounts', { token: a.token })).json!.value!.list;
    expect((await call(`/wps/v2/bank-accounts/${mine[0]!.id}`, { token: a.token, method: 'DELETE' })).status).toBe(200);
    expect((await bind(b, 'BDO', num, 'bindpay2')).status).toBe(200);
  });

  it('needs the withdraw password, a bound bank account and the limits; a change needs the old password', async () => {
    const m = await member({ fund: 1000_00 });
    expect((await call<{ isSet: boolean }>('/wps/member/withdraw-password', { token: m.token })).json?.value?.isSet).toBe(false);
    expect((await call('/wps/v2/bank-accounts', { token: m.token, body: { bankName: 'BPI', accountName: 'Ana Cruz', accountNumber: '1234567890', withdrawPassword: 'x' } })).json?.code).toBe('WITHDRAW_PASSWORD_NOT_SET');
    const r = await readyMember();
    expect((await withdraw(r, 200_00, rid(), 'nope')).json?.code).toBe('WITHDRAW_PASSWORD_WRONG');
    expect((await withdraw(r, 50_00)).json?.code).toBe('AMOUNT_OUT_OF_RANGE');
    expect((await withdraw({ token: r.token, bankId: '999999' }, 200_00)).status).toBe(404);
    expect((await call('/wps/member/withdraw-password', { token: r.token, body: { oldWithdrawPassword: 'bad', newWithdrawPassword: 'pay654321', confirmNewWithdrawPassword: 'pay654321' } })).json?.code).toBe('WITHDRAW_PASSWORD_WRONG');
    expect((await call('/wps/member/withdraw-password', { token: r.token, body: { oldWithdrawPassword: 'pay123456', newWithdrawPassword: 'pay654321', confirmNewWithdrawPassword: 'pay654321' } })).status).toBe(200);
    // Once set, a first set's form sent again (login password, no old one) is told what is needed, six times
    // over without using up the five-miss budget; the same one again is PASSWORD_UNCHANGED; neither changes it.
    for (let i = 0; i < 6; i++) {
      const again = await call('/wps/member/withdraw-password', { token: r.token, body: { loginPassword: 'login12345', newWithdrawPassword: 'pay777777', confirmNewWithdrawPassword: 'pay777777' } });
      expect([again.status, again.json?.code]).toEqual([400, 'VALIDATION']);
    }
    const same = await call('/wps/member/withdraw-password', { token: r.token, body: { oldWithdrawPassword: 'pay654321', newWithdrawPassword: 'pay654321', confirmNewWithdrawPassword: 'pay654321' } });
    expect([same.status, same.json?.code]).toEqual([400, 'PASSWORD_UNCHANGED']);
    expect((await withdraw(r, 200_00, rid(), 'pay777777')).json?.code).toBe('WITHDRAW_PASSWORD_WRONG');
    expect((await withdraw(r, 200_00, rid(), 'pay654321')).status).toBe(200);
    for (const num of ['2222222222', '3333333333']) {
      expect((await call('/wps/v2/bank-accounts', { token: r.token, body: { bankName: 'BDO', accountName: 'Juan Dela Cruz', accountNumber: num, withdrawPassword: 'pay654321' } })).status).toBe(200);
    }
    expect((await call('/wps/v2/bank-accounts', { token: r.token, body: { bankName: 'BDO', accountName: 'Juan Dela Cruz', accountNumber: '4444444444', withdrawPassword: 'pay654321' } })).json?.code).toBe('BANK_ACCOUNT_LIMIT');
    expect((await call('/wps/v2/bank-accounts', { token: r.token, body: { bankName: 'BDO', accountName: 'x', accountNumber: '12', withdrawPassword: 'pay654321' } })).status).toBe(400);
  });

  it('the transaction password may not be the login password: not when set, not when changed, and the login password may not become it', async () => {
    const m = await member({ fund: 1000_00 });
    const same = await call('/wps/member/withdraw-password', { token: m.token, body: { loginPassword: 'login12345', newWithdrawPassword: 'login12345', confirmNewWithdrawPassword: 'login12345' } });
    expect([same.status, same.json?.success, same.json?.code, (same.json as { details?: Array<{ path: string }> } | undefined)?.details?.[0]?.path]).toEqual([400, false, 'PASSWORDS_MUST_DIFFER', 'newWithdrawPassword']);
    expect((await call<{ isSet: boolean }>('/wps/member/withdraw-password', { token: m.token })).json?.value?.isSet).toBe(false);
    expect((await call('/wps/member/withdraw-password', { token: m.token, body: { loginPassword: 'login12345', newWithdrawPassword: 'pay123456', confirmNewWithdrawPassword: 'pay123456' } })).status).toBe(200);
    // A change to the login password is refused the same way (the proof is the current transaction password).
    const changed = await call('/wps/member/withdraw-password', { token: m.token, body: { oldWithdrawPassword: 'pay123456', newWithdrawPassword: 'login12345', confirmNewWithdrawPassword: 'login12345' } });
    expect(changed.json?.code).toBe('PASSWORDS_MUST_DIFFER');
    const guard = (pw: string) => call('/wps/v2/bank-accounts', { token: m.token, body: { bankName: 'BPI', accountName: 'Ana Cruz', accountNumber: `5${String(m.memberId).padStart(9, '0')}`, withdrawPassword: pw } });
    expect((await guard('login12345')).json?.code).toBe('WITHDRAW_PASSWORD_WRONG');
    // And the login password may not become the transaction password.
    const login = await call('/wps/member/password', { token: m.token, body: { oldPassword: 'login12345', newPassword: 'pay123456', confirmNewPassword: 'pay123456' } });
    expect([login.status, login.json?.code]).toEqual([400, 'PASSWORDS_MUST_DIFFER']);
    expect((await guard('pay123456')).status).toBe(200);
  });

  it('a transaction password change (security centre): a wrong current one changes nothing, the new one has the set rules, five misses lock it', async () => {
    const m = await member({ withdrawPassword: 'pay123456' });
    const change = (oldWithdrawPassword: string, next: string, confirm = next) =>
      call('/wps/member/withdraw-password', { token: m.token, body: { oldWithdrawPassword, newWithdrawPassword: next, confirmNewWithdrawPassword: confirm } });
    // The login password is no proof once one is set: the request is told the old one is needed (not a
    // guess of it: it does not count against the lock).
    const withLogin = await call('/wps/member/withdraw-password', { token: m.token, body: { loginPassword: 'login12345', newWithdrawPassword: 'pay999999', confirmNewWithdrawPassword: 'pay999999' } });
    expect([withLogin.status, withLogin.json?.success, withLogin.json?.code]).toEqual([400, false, 'VALIDATION']);
    const wrong = await change('nope', 'pay654321');
    expect([wrong.status, wrong.json?.success, wrong.json?.code]).toEqual([400, false, 'WITHDRAW_PASSWORD_WRONG']);
    // Same rules as setting it: 6 to 64 characters, confirmation equal (checked before the current one is tried).
    expect((await change('pay123456', '12345')).status).toBe(400);
    expect((await change('pay123456', 'x'.repeat(65))).status).toBe(400);
    expect((await change('pay123456', 'pay654321', 'pay654322')).json?.code).toBe('PASSWORD_MISMATCH');
    // Nothing changed: the old one still guards money, the refused new ones do not.
    const guard = (pw: string) => call('/wps/v2/bank-accounts', { token: m.token, body: { bankName: 'BPI', accountName: 'Ana Cruz', accountNumber: `5${String(m.memberId).padStart(9, '0')}`, withdrawPassword: pw } });
    expect((await guard('pay654321')).json?.code).toBe('WITHDRAW_PASSWORD_WRONG');
    expect((await guard('pay999999')).json?.code).toBe('WITHDRAW_PASSWORD_WRONG');
    expect((await guard('pay123456')).status).toBe(200);
    // Misses so far: wrong and the two guards; the fifth locks it for 15 minutes, even for the right one.
    expect((await change('nope', 'pay654321')).json?.code).toBe('WITHDRAW_PASSWORD_WRONG');
    expect((await change('nope2', 'pay654321')).json?.code).toBe('WITHDRAW_PASSWORD_WRONG');
    const locked = await change('pay123456', 'pay654321');
    expect([locked.status, locked.json?.code]).toEqual([429, 'WITHDRAW_PASSWORD_LOCKED']);
    expect((await guard('pay123456')).json?.code).toBe('WITHDRAW_PASSWORD_LOCKED');
  });

  it('judges at most five transaction passwords in 15 minutes, also when they are sent at once', async () => {
    const m = await readyMember(1_000_00); // its first set tried a wrong login password: one miss
    const guard = (pw: string, i: number) => call('/wps/v2/bank-accounts', { token: m.token, body: { bankName: 'BPI', accountName: 'Ana Cruz', accountNumber: `12345678${String(i).padStart(2, '0')}`, withdrawPassword: pw } });
    // Counted, judged, then recorded, 19 of 30 wrong guesses sent at once were judged (and a right one
    // among them taken after 7 misses); each guess now holds a slot while it is judged.
    const answers = await Promise.all(Array.from({ length: 15 }, (_, i) => guard(`wrong${i}xx`, i)));
    const codes = answers.map((r) => r.json?.code).sort();
    expect(codes).toEqual([...Array(4).fill('WITHDRAW_PASSWORD_WRONG'), ...Array(11).fill('WITHDRAW_PASSWORD_LOCKED')].sort());
    expect((await guard('pay123456', 20)).json?.code).toBe('WITHDRAW_PASSWORD_LOCKED');
  });

  it('the same request sent 5 times at once holds once; the daily maximum counts what is not rejected', async () => {
    const m = await readyMember(20_000_00);
    const requestId = rid();
    const all = await Promise.all(Array.from({ length: 5 }, () => withdraw(m, 1000_00, requestId)));
    expect(all.every((r) => r.status === 200)).toBe(true);
    expect(new Set(all.map((r) => r.json!.value!.id)).size).toBe(1);
    expect(await balance(m.token)).toMatchObject({ balance: 20_000_00, held: 1000_00, available: 19_000_00 });
    expect((await withdraw(m, 2000_00, requestId)).json?.code).toBe('IDEMPOTENCY_MISMATCH');
    const set = await opsCall('/settings', { method: 'PUT', body: { withdrawMax: 3000_00, withdrawDailyMax: 4000_00 } });
    expect(set.status).toBe(200);
    try {
      expect((await withdraw(m, 3500_00)).json?.code).toBe('AMOUNT_OUT_OF_RANGE');
      expect((await withdraw(m, 3000_00)).status).toBe(200);
      const over = await withdraw(m, 500_00);
      expect(over.json?.code).toBe('DAILY_LIMIT_EXCEEDED');
      const limits = await call<{ usedToday: number; dailyMax: number; hasWithdrawPassword: boolean }>('/wps/v2/withdrawals/limits', { token: m.token });
      expect(limits.json?.value).toMatchObject({ usedToday: 4000_00, dailyMax: 4000_00, hasWithdrawPassword: true });
      // A rejected one frees its share of the day.
      expect((await opsCall(`/withdrawals/${all[0]!.json!.value!.id}/reject`, { body: { reason: 'KYC pending' } })).status).toBe(200);
      expect((await withdraw(m, 500_00)).status).toBe(200);
    } finally {
      await opsCall('/settings', { method: 'PUT', body: { withdrawMax: 50_000_00, withdrawDailyMax: 100_000_00 } });
    }
    const poor = await readyMember(100_00);
    expect((await withdraw(poor, 200_00)).json?.code).toBe('INSUFFICIENT_FUNDS');
  });

  it('approve, pay, then the player confirms a partial receipt with a proof; illegal moves are refused', async () => {
    const m = await readyMember();
    const socket = await socketOf(m.token);
    const w = (await withdraw(m, 1000_00)).json!.value!;
    expect(w.status).toBe('requested');
    const early = await confirm(m.token, w.id, { result: 'received' });
    expect(early.status).toBe(409);
    expect(early.json.code).toBe('INVALID_STATE');
    expect((await opsCall(`/withdrawals/${w.id}/paid`, { body: {} })).json?.code).toBe('INVALID_STATE');
    const approved = await opsCall<{ status: string }>(`/withdrawals/${w.id}/approve`, { body: {} });
    expect(approved.json?.value?.status).toBe('approved');
    // Approving twice is a replay, not a second change.
    expect((await opsCall<{ status: string }>(`/withdrawals/${w.id}/approve`, { body: {} })).json?.value?.status).toBe('approved');
    const paid = await opsCall<{ status: string; autoReceiveAt: string }>(`/withdrawals/${w.id}/paid`, { body: { payoutReference: 'IBFT-001' } });
    expect(paid.json?.value?.status).toBe('paid');
    expect(Date.parse(paid.json!.value!.autoReceiveAt) - Date.now()).toBeGreaterThan(25 * 60_000);
    expect(await balance(m.token)).toMatchObject({ balance: 4000_00, held: 0 });
    // Paid again: the same reference is a replay; another one is refused (it was a 200 that kept the first).
    expect((await opsCall<{ status: string }>(`/withdrawals/${w.id}/paid`, { body: { payoutReference: 'IBFT-001' } })).json?.value?.status).toBe('paid');
    const other = await opsCall(`/withdrawals/${w.id}/paid`, { body: { payoutReference: 'IBFT-002' } });
    expect([other.status, other.json?.code]).toEqual([409, 'IDEMPOTENCY_MISMATCH']);
    // an empty reference names none: a replay
    expect((await opsCall(`/withdrawals/${w.id}/paid`, { body: { payoutReference: '' } })).status).toBe(200);
    expect(await balance(m.token)).toMatchObject({ balance: 4000_00, held: 0 });
    expect((await opsCall(`/withdrawals/${w.id}/reject`, { body: { reason: 'too late' } })).json?.code).toBe('INVALID_STATE');

    const statuses = () => socket.received.filter((e) => e.type === 'withdrawal.updated').map((e) => (e.payload as { status: string }).status);
    await waitFor(() => statuses().includes('paid'), 'withdrawal.updated paid');
    expect(statuses()).toEqual(['requested', 'approved', 'paid']);
    const paidEvent = socket.received.find((e) => e.type === 'withdrawal.updated' && (e.payload as { status: string }).status === 'paid')!;
    expect((paidEvent.payload as { autoReceiveAt: string | null }).autoReceiveAt).toBeTruthy();
    await waitFor(() => socket.received.find((e) => e.type === 'message.received' && (e.payload as { kind: string }).kind === 'withdrawal_approved'), 'approved message');

    expect((await confirm(m.token, w.id, { result: 'not_received' })).json.code).toBe('PROOF_REQUIRED');
    expect((await confirm(m.token, w.id, { result: 'partially_received', receivedAmount: '400' }, [{ data: Buffer.from('not an image at all'), name: 'x.png', type: 'image/png' }])).json.code).toBe('PROOF_INVALID');
    const four = Array.from({ length: 4 }, (_, i) => ({ data: PNG, name: `p${i}.png`, type: 'image/png' }));
    expect((await confirm(m.token, w.id, { result: 'partially_received', receivedAmount: '40000' }, four)).json.code).toBe('PROOF_INVALID');
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]);
    const tooBig = await confirm(m.token, w.id, { result: 'partially_received', receivedAmount: '40000' }, [{ data: big, name: 'big.png', type: 'image/png' }]);
    expect(tooBig.status).toBe(400);
    expect(tooBig.json.code).toBe('PROOF_INVALID');
    expect((await confirm(m.token, w.id, { result: 'partially_received', receivedAmount: '100000' }, [{ data: PNG, name: 'p.png', type: 'image/png' }])).json.code).toBe('VALIDATION');
    const partial = await confirm(m.token, w.id, { result: 'partially_received', receivedAmount: '40000' }, [{ data: PNG, name: 'p.png', type: 'image/png' }]);
    expect(partial.status).toBe(200);
    expect(partial.json.value).toMatchObject({ status: 'partially_received', receivedAmount: 400_00, remainingAmount: 600_00, proofCount: 1 });
    expect((await confirm(m.token, w.id, { result: 'received' })).json.code).toBe('INVALID_STATE');
    await waitFor(() => statuses().includes('partially_received'), 'withdrawal.updated partially_received');

    const proof = await fetch(`${t.url}/ops/api/withdrawals/${w.id}/proofs/0`, { headers: { authorization: `Bearer ${ops}` } });
    expect(proof.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await proof.arrayBuffer()).equals(PNG)).toBe(true);
    const trail = await opsCall<{ list: Array<{ action: string }> }>(`/audit?targetType=withdrawal&targetId=${w.id}`);
    expect(trail.json!.value!.list.map((a) => a.action)).toEqual(['withdrawal.paid', 'withdrawal.approve']);
  });

  it('a rejected withdrawal gives the funds back and tells the player', async () => {
    const m = await readyMember(2000_00);
    const w = (await withdraw(m, 1500_00)).json!.value!;
    expect((await balance(m.token)).available).toBe(500_00);
    await opsCall(`/withdrawals/${w.id}/approve`, { body: {} });
    const rejected = await opsCall<{ status: string; reason: string }>(`/withdrawals/${w.id}/reject`, { body: { reason: 'name mismatch' } });
    expect(rejected.json?.value).toMatchObject({ status: 'rejected', reason: 'name mismatch' });
    expect(await balance(m.token)).toMatchObject({ balance: 2000_00, available: 2000_00, held: 0 });
    const unread = await call<{ count: number }>('/wps/relay/CSP_unreadCount', { token: m.token });
    expect(unread.json?.value?.count).toBe(2);
    const msgs = await call<{ list: Array<{ id: string; kind: string }> }>('/wps/v2/messages', { token: m.token });
    expect(msgs.json!.value!.list.map((x) => x.kind)).toEqual(['withdrawal_rejected', 'withdrawal_approved']);
    expect((await call<{ count: number }>('/wps/v2/messages/read', { token: m.token, body: { ids: [msgs.json!.value!.list[0]!.id] } })).json?.value?.count).toBe(1);
    expect((await call<{ count: number }>('/wps/v2/messages/read', { token: m.token, body: { all: true } })).json?.value?.count).toBe(0);
    expect((await call('/wps/v2/messages/read', { token: m.token, body: {} })).status).toBe(400);
  });

  it('counts an unconfirmed paid withdrawal as received after the configured minutes (job, once), and that is final', async () => {
    await opsCall('/settings', { method: 'PUT', body: { autoReceiveMinutes: 1 } });
    const m = await readyMember();
    const w = (await withdraw(m, 1000_00)).json!.value!;
    await opsCall(`/withdrawals/${w.id}/approve`, { body: {} });
    const paid = await opsCall<{ autoReceiveAt: string }>(`/withdrawals/${w.id}/paid`, { body: {} });
    await opsCall('/settings', { method: 'PUT', body: { autoReceiveMinutes: 30 } });
    expect(Date.parse(paid.json!.value!.autoReceiveAt) - Date.now()).toBeLessThan(61_000);
    expect(await t.portal.cashier.withdrawals.runAutoReceive()).toBe(0);
    await t.portal.db.query(`UPDATE withdrawals SET auto_receive_at = now() - interval '1 second' WHERE id = $1`, [Number(w.id)]);
    const done = await Promise.all([t.portal.cashier.withdrawals.runAutoReceive(), t.portal.cashier.withdrawals.runAutoReceive()]);
    expect(done[0]! + done[1]!).toBe(1);
    // The portal runs it as a recurring job of its queue (one run per period), and the test clock can run a period now.
    expect(t.portal.jobs.kind).toBe(t.portal.db.kind === 'pg' ? 'graphile-worker' : 'table');
    expect(await t.portal.jobs.runNow('withdrawal.auto-receive', 'test-clock-1')).toMatchObject({ state: 'done', lastError: null });
    const after = await call<{ status: string; receivedAmount: number }>(`/wps/v2/withdrawals/${w.id}`, { token: m.token });
    expect(after.json?.value).toMatchObject({ status: 'auto_received', receivedAmount: 1000_00 });
    expect((await confirm(m.token, w.id, { result: 'not_received' }, [{ data: PNG, name: 'p.png', type: 'image/png' }])).json.code).toBe('INVALID_STATE');
    expect((await balance(m.token)).balance).toBe(4000_00);
  });

  it('the portal itself auto-receives a due withdrawal: the recurring job runs once per period, on its own', async () => {
    const m = await readyMember();
    const w = (await withdraw(m, 500_00)).json!.value!;
    await opsCall(`/withdrawals/${w.id}/approve`, { body: {} });
    await opsCall(`/withdrawals/${w.id}/paid`, { body: {} });
    await t.portal.db.query(`UPDATE withdrawals SET auto_receive_at = now() - interval '1 second' WHERE id = $1`, [Number(w.id)]);
    let status = '';
    // within a few AUTO_RECEIVE_EVERY_MS periods; nobody calls runAutoReceive here
    for (let i = 0; i < 400 && status !== 'auto_received'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      status = (await call<{ status: string }>(`/wps/v2/withdrawals/${w.id}`, { token: m.token })).json!.value!.status;
    }
    expect(status).toBe('auto_received');
    const periods = await t.portal.db.query<{ key: string; n: number }>(
      `SELECT key, count(*)::int AS n FROM jobs WHERE name = 'withdrawal.auto-receive' AND key ~ '^[0-9]{4}-' GROUP BY key`,
    );
    expect(periods.rows.length).toBeGreaterThan(0);
    expect(periods.rows.every((r) => r.n === 1 && Date.parse(r.key) % 5000 === 0)).toBe(true);
  });

  it('an unknown payout outcome stays held until reconciled: as failed funds return, as paid the hold posts', async () => {
    const m = await readyMember(3000_00);
    const a = (await withdraw(m, 1000_00)).json!.value!;
    const b = (await withdraw(m, 1000_00)).json!.value!;
    for (const w of [a, b]) {
      await opsCall(`/withdrawals/${w.id}/approve`, { body: {} });
      expect((await opsCall<{ status: string }>(`/withdrawals/${w.id}/unknown`, { body: { reason: 'bank timeout' } })).json?.value?.status).toBe('held');
    }
    expect(await balance(m.token)).toMatchObject({ balance: 3000_00, held: 2000_00 });
    expect(await t.portal.cashier.withdrawals.runAutoReceive()).toBe(0);
    expect((await opsCall(`/withdrawals/${a.id}/reject`, { body: { reason: 'guess' } })).json?.code).toBe('INVALID_STATE');
    const held = await opsCall<{ list: Array<{ id: string }> }>('/withdrawals?status=held');
    expect(held.json!.value!.list.map((x) => x.id)).toEqual(expect.arrayContaining([a.id, b.id]));
    expect((await opsCall<{ status: string }>(`/withdrawals/${a.id}/reconcile`, { body: { outcome: 'failed', note: 'bank returned funds' } })).json?.value?.status).toBe('rejected');
    expect((await opsCall<{ status: string }>(`/withdrawals/${b.id}/reconcile`, { body: { outcome: 'paid', note: 'statement shows debit', payoutReference: 'IBFT-9' } })).json?.value?.status).toBe('paid');
    expect(await balance(m.token)).toMatchObject({ balance: 2000_00, held: 0 });
    expect((await opsCall(`/withdrawals/${a.id}/reconcile`, { body: { outcome: 'paid', note: 'again' } })).json?.code).toBe('INVALID_STATE');
  });
});

describe('transfers', () => {
  it('to the direct upline, and from an agent only to members of its own tree, each once per requestId', async () => {
    const agent = await member({ type: 1, fund: 10_000_00, withdrawPassword: 'agentpay1' });
    const child = await member({ parent: agent.account, fund: 1000_00, withdrawPassword: 'childpay1' });
    const grandchild = await member({ parent: child.account, withdrawPassword: 'grandpay1' });
    const otherAgent = await member({ type: 1 });
    const stranger = await member({ parent: otherAgent.account });
    const send = (who: { token: string }, body: Json) => call<{ id: string; amount: number; toAccount: string }>('/wps/relay/GCS_walletTransfer', { token: who.token, body });

    const requestId = rid();
    const up = await Promise.all([1, 2, 3].map(() => send(child, { direction: 'upline', amount: 300_00, withdrawPassword: 'childpay1', requestId })));
    expect(new Set(up.map((r) => r.json?.value?.id)).size).toBe(1);
    expect(up[0]!.json?.value).toMatchObject({ toAccount: agent.account, amount: -300_00 });
    expect((await balance(child.token)).balance).toBe(700_00);
    expect((await balance(agent.token)).balance).toBe(10_300_00);
    expect((await send(child, { direction: 'upline', amount: 300_00, withdrawPassword: 'wrong', requestId: rid() })).json?.code).toBe('WITHDRAW_PASSWORD_WRONG');
    expect((await send(agent, { direction: 'upline', amount: 100_00, withdrawPassword: 'agentpay1', requestId: rid() })).json?.code).toBe('NO_UPLINE');

    const down = await send(agent, { direction: 'downline', toAccount: grandchild.account, amount: 2000_00, withdrawPassword: 'agentpay1', requestId: rid() });
    expect(down.status).toBe(200);
    expect((await balance(grandchild.token)).balance).toBe(2000_00);
    expect((await send(agent, { direction: 'downline', toAccount: stranger.account, amount: 100_00, withdrawPassword: 'agentpay1', requestId: rid() })).json?.code).toBe('NOT_IN_TREE');
    expect((await send(agent, { direction: 'downline', toAccount: agent.account, amount: 100_00, withdrawPassword: 'agentpay1', requestId: rid() })).json?.code).toBe('NOT_IN_TREE');
    expect((await send(child, { direction: 'downline', toAccount: grandchild.account, amount: 100_00, withdrawPassword: 'childpay1', requestId: rid() })).json?.code).toBe('NON_AGENT');
    expect((await send(grandchild, { direction: 'upline', amount: 5000_00, withdrawPassword: 'grandpay1', requestId: rid() })).json?.code).toBe('INSUFFICIENT_FUNDS');

    const list = await call<{ list: Array<{ direction: string; amount: number }>; total: number }>('/wps/relay/GCS_walletTransfer', { token: agent.token });
    expect(list.json?.value?.total).toBe(2);
    expect(list.json!.value!.list.map((x) => [x.direction, x.amount])).toEqual([['downline', -2000_00], ['upline', 300_00]]);
    expect((await call<{ isSingle: number }>('/wps/relay/GCS_merchantWallet', { token: agent.token })).json?.value).toEqual({ isSingle: 1 });

    // A recipient the client names on an upline transfer must be the upline (it used to be ignored: 200 to the upline).
    const named = await send(child, { direction: 'upline', toAccount: otherAgent.account, amount: 1_00, withdrawPassword: 'childpay1', requestId: rid() });
    expect([named.status, named.json?.code]).toEqual([400, 'VALIDATION']);
    // A disabled upline receives nothing, as a disabled downline does not.
    await t.portal.db.query(`UPDATE members SET status = 'disabled' WHERE account = $1`, [child.account]);
    const toDisabled = await send(grandchild, { direction: 'upline', amount: 1_00, withdrawPassword: 'grandpay1', requestId: rid() });
    expect([toDisabled.status, toDisabled.json?.code]).toEqual([409, 'UPLINE_UNAVAILABLE']);
    await t.portal.db.query(`UPDATE members SET status = 'active' WHERE account = $1`, [child.account]);
    // A disabled downline receives nothing either, and the agent is told why (it is still in the team's lists).
    await t.portal.db.query(`UPDATE members SET status = 'disabled' WHERE account = $1`, [grandchild.account]);
    const agentBefore = (await balance(agent.token)).balance;
    const toDisabledDown = await send(agent, { direction: 'downline', toAccount: grandchild.account, amount: 1_00, withdrawPassword: 'agentpay1', requestId: rid() });
    expect([toDisabledDown.status, toDisabledDown.json?.code]).toEqual([409, 'DOWNLINE_UNAVAILABLE']);
    expect((await balance(agent.token)).balance).toBe(agentBefore);
    await t.portal.db.query(`UPDATE members SET status = 'active' WHERE account = $1`, [grandchild.account]);
    // A player excluded for responsible gaming takes no money from the agent (a deposit is refused as well).
    expect((await call('/wps/v2/rg/exclusion', { token: grandchild.token, body: { kind: 'cooling', duration: '24h' } })).status).toBe(200);
    const toExcluded = await send(agent, { direction: 'downline', toAccount: grandchild.account, amount: 1_00, withdrawPassword: 'agentpay1', requestId: rid() });
    expect([toExcluded.status, toExcluded.json?.code]).toEqual([403, 'NOT_IN_TREE']);
    expect((await balance(agent.token)).balance).toBe(8_300_00);
  });

  it("money an agent sends down keeps to the downline's deposit limit, and counts in it (an agent paid a player past it)", async () => {
    const agent = await member({ type: 1, fund: 10_000_00, withdrawPassword: 'agentpay2' });
    const kid = await member({ parent: agent.account });
    const send = (amount: number, requestId = rid()) => call<{ id: string }>('/wps/relay/GCS_walletTransfer', { token: agent.token, body: { direction: 'downline', toAccount: kid.account, amount, withdrawPassword: 'agentpay2', requestId } });
    expect((await call('/wps/v2/rg/limits', { token: kid.token, body: { kind: 'deposit', period: 'day', amount: 500_00 } })).status).toBe(200);
    const first = rid();
    expect((await send(300_00, first)).status).toBe(200);
    // Past the limit: refused, nothing moved; the agent is told a limit applies (not whose or which).
    const over = await send(300_00);
    expect([over.status, over.json?.code]).toEqual([409, 'DOWNLINE_LIMIT_REACHED']);
    expect((await balance(kid.token)).balance).toBe(300_00);
    expect((await balance(agent.token)).balance).toBe(9_700_00);
    // A retry of the transfer already made answers as it did (not refused by its own amount).
    const again = await send(300_00, first);
    expect(again.status).toBe(200);
    expect((await balance(kid.token)).balance).toBe(300_00);
    // What fits goes through; the player's own deposit then finds the limit used.
    expect((await send(200_00)).status).toBe(200);
    const state = await call<{ limits: Array<{ kind: string; period: string; used: number }> }>('/wps/v2/rg/state', { token: kid.token });
    expect(state.json?.value?.limits.find((l) => l.kind === 'deposit' && l.period === 'day')?.used).toBe(500_00);
    const channels = await call<{ list: Array<{ code: string; minAmount: number }> }>('/wps/v2/deposit/channels', { token: kid.token });
    const ch = channels.json!.value!.list[0]!;
    const own = await call('/wps/v2/deposit/orders', { token: kid.token, body: { channelCode: ch.code, amount: ch.minAmount, requestId: rid() } });
    expect([own.status, own.json?.code]).toEqual([403, 'RG_LIMIT_REACHED']);
  });
});

describe('account record', () => {
  it('pages ledger movements with signed amounts and balance after, filters by date, caps the range, obeys TRANSREC3', async () => {
    const m = await member({ fund: 3000_00, withdrawPassword: 'recpay123' });
    const bank = await call<{ id: string }>('/wps/v2/bank-accounts', { token: m.token, body: { bankName: 'BPI', accountName: 'Rec Member', accountNumber: '5555555555', withdrawPassword: 'recpay123' } });
    const w = await call<{ id: string }>('/wps/v2/withdrawals', { token: m.token, body: { bankAccountId: bank.json!.value!.id, amount: 500_00, withdrawPassword: 'recpay123', requestId: rid() } });
    await opsCall('/adjustments', { body: { account: m.account, amount: 123_45, reason: 'goodwill credit', requestId: rid() } });
    type Rec = { list: Array<{ kind: string; amount: number; balanceAfter: number | null; status: string; reference: string }>; total: number; from: string; to: string };
    const page1 = await call<Rec>('/wps/v2/wallets/records?pageNo=1&pageSize=2', { token: m.token });
    expect(page1.json?.value?.total).toBe(3);
    expect(page1.json!.value!.list).toEqual([
      expect.objectContaining({ kind: 'adjustment', amount: 123_45, balanceAfter: 3123_45, status: 'posted' }),
      expect.objectContaining({ kind: 'withdrawal', amount: -500_00, balanceAfter: null, status: 'pending', reference: `W${w.json!.value!.id}` }),
    ]);
    const page2 = await call<Rec>('/wps/v2/wallets/records?pageNo=2&pageSize=2', { token: m.token });
    expect(page2.json!.value!.list).toEqual([expect.objectContaining({ kind: 'deposit', amount: 3000_00, balanceAfter: 3000_00 })]);
    const future = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    expect((await call<Rec>(`/wps/v2/wallets/records?from=${future}&to=${future}`, { token: m.token })).json?.value?.total).toBe(0);
    const wide = await call<Rec>('/wps/v2/wallets/records?from=2020-01-01', { token: m.token });
    expect(Date.parse(wide.json!.value!.to) - Date.parse(wide.json!.value!.from)).toBe(90 * 86_400_000);
    expect(wide.json?.value?.total).toBe(3);
    expect((await call('/wps/v2/wallets/records?pageSize=101', { token: m.token })).status).toBe(400);
    expect((await call('/wps/v2/wallets/records?from=yesterday', { token: m.token })).status).toBe(400);
    expect((await call('/wps/v2/wallets/records')).status).toBe(401);
    await call('/wps/dev/merchant', { body: { modules: { TRANSREC3: false } } });
    try {
      const off = await call('/wps/v2/wallets/records', { token: m.token });
      expect(off.status).toBe(403);
      expect(off.json?.code).toBe('MODULE_DISABLED');
    } finally {
      await call('/wps/dev/merchant', { body: { modules: { TRANSREC3: true } } });
    }
  });
});

describe('operators', () => {
  it('refuses member tokens and anonymous calls; auditors only read; the demo operator must change its password', async () => {
    const m = await member();
    expect((await opsCall('/withdrawals', { token: m.token })).status).toBe(401);
    expect((await call('/ops/api/withdrawals')).status).toBe(401);
    expect((await call('/ops/api/session/login', { body: { username: 'boss', password: 'wrong-password' } })).json?.code).toBe('INVALID_CREDENTIALS');
    // An operator token is not a member token either.
    expect((await call('/wps/v2/wallets/balance', { token: ops })).status).toBe(401);

    const reader = (await call<{ token: string }>('/ops/api/session/login', { body: { username: 'reader', password: 'Reader12345678', totp: await opsTotp('reader', t.url) } })).json!.value!.token;
    expect((await opsCall('/withdrawals', { token: reader })).status).toBe(200);
    expect((await opsCall('/adjustments', { token: reader, body: { account: m.account, amount: 100, reason: 'nope nope', requestId: rid() } })).status).toBe(403);
    expect((await opsCall('/settings', { token: reader, method: 'PUT', body: { autoReceiveMinutes: 5 } })).status).toBe(403);

    const demo = await call<{ token: string; mustChangePassword: boolean; roles: string[] }>('/ops/api/session/login', { body: { username: 'ops01', password: '{secret}' } });
    expect(demo.json?.value).toMatchObject({ mustChangePassword: true, roles: ['administrator'], totpEnrolled: false });
    const dt = demo.json!.value!.token;
    expect((await opsCall('/withdrawals', { token: dt })).json?.code).toBe('PASSWORD_CHANGE_REQUIRED');
    expect((await opsCall('/session/password', { token: dt, body: { oldPassword: '{secret}', newPassword: 'short', confirmNewPassword: 'short' } })).status).toBe(400);
    expect((await opsCall('/session/password', { token: dt, body: { oldPassword: '{secret}', newPassword: 'Ops01-new-pass-9', confirmNewPassword: 'Ops01-new-pass-9' } })).status).toBe(200);
    // then the authenticator, before anything else
    expect((await opsCall('/withdrawals', { token: dt })).json?.code).toBe('TOTP_ENROLMENT_REQUIRED');
    await enrolOperatorTotp(t.url, dt);
    expect((await opsCall('/withdrawals', { token: dt })).status).toBe(200);
    expect((await opsCall('/session', { token: dt, method: 'DELETE' })).status).toBe(200);
    expect((await opsCall('/withdrawals', { token: dt })).status).toBe(401);
  });

  it('adjusts a balance with a reason (once per requestId), audited; the audit trail is append-only', async () => {
    const m = await member({ fund: 100_00 });
    const requestId = rid();
    const up = await opsCall<{ balance: number; replayed: boolean }>('/adjustments', { body: { account: m.account, amount: 50_00, reason: 'promo correction', requestId } });
    expect(up.json?.value).toMatchObject({ balance: 150_00, replayed: false });
    expect((await opsCall<{ replayed: boolean }>('/adjustments', { body: { account: m.account, amount: 50_00, reason: 'promo correction', requestId } })).json?.value?.replayed).toBe(true);
    expect((await opsCall('/adjustments', { body: { account: m.account, amount: -500_00, reason: 'too much', requestId: rid() } })).json?.code).toBe('INSUFFICIENT_FUNDS');
    expect((await opsCall('/adjustments', { body: { account: m.account, amount: 10, requestId: rid() } })).status).toBe(400);
    const down = await opsCall<{ balance: number }>('/adjustments', { body: { account: m.account, amount: -20_00, reason: 'duplicate bonus', requestId: rid() } });
    expect(down.json?.value?.balance).toBe(130_00);
    const trail = await opsCall<{ list: Array<{ action: string; before: Json; after: Json }> }>(`/audit?action=balance.adjust&targetId=${m.memberId}`);
    expect(trail.json!.value!.list.map((a) => a.after.amount)).toEqual([-20_00, 50_00]);
    expect(trail.json!.value!.list[1]).toMatchObject({ before: { balance: 100_00 }, after: { balance: 150_00, reason: 'promo correction', account: m.account } });
    await expect(t.portal.db.query(`UPDATE audit_log SET action = 'x'`)).rejects.toThrow(/append-only/);
    await expect(t.portal.db.query('DELETE FROM audit_log')).rejects.toThrow(/append-only/);
    const logins = await opsCall<{ total: number }>('/audit?action=operator.login');
    expect(logins.json!.value!.total).toBeGreaterThanOrEqual(1);
  });
});

describe("the merchant's day", () => {
  it("starts at the merchant's midnight whatever the database session's time zone", async () => {
    const { DAY_START_SQL } = await import('./settings.ts');
    const expected = (offsetMin: number, now: number) => {
      const local = now + offsetMin * 60_000;
      return local - (local % 86_400_000) - offsetMin * 60_000;
    };
    for (const zone of ['UTC', 'Asia/Manila', 'America/Los_Angeles']) {
      for (const offset of [480, 0, -300]) {
        const r = await t.portal.db.tx(async (tx) => {
          await tx.query(`SET LOCAL TimeZone = '${zone}'`);
          return (await tx.query<{ start: Date | string; now: Date | string }>(`SELECT ${DAY_START_SQL('$1::int')} AS start, now() AS now`, [offset])).rows[0]!;
        });
        expect(new Date(r.start).getTime(), `${zone}, offset ${offset}`).toBe(expected(offset, new Date(r.now).getTime()));
      }
    }
  });
});
