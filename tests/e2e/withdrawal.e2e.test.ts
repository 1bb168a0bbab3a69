import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deflateSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { GatewayProcess } from './support/gateway-process.ts';
import { launchBrowser, newContext, newPage, snap } from './support/browser.ts';
import { createMember, realtimeConnected } from './support/portal-ui.ts';
import { apiLogin, signInContext } from './support/session.ts';
import { DemoOperator } from './support/ops-operator.ts';

/**
 * A withdrawal across two browsers: the player requests it, an operator approves and pays it in
 * /ops from a second browser context, the player confirms a partial receipt with a proof image,
 * and another paid withdrawal becomes auto-received.
 */
let gw: GatewayProcess;
let browser: Browser;
const OPS_PASSWORD = 'Ops-e2e-pass-77';
let operator: DemoOperator;

beforeAll(async () => {
  gw = await GatewayProcess.start();
  browser = await launchBrowser();
  // the demo operator must change the default password first, as a person would
  operator = await DemoOperator.prepare(gw, OPS_PASSWORD);
});
afterAll(async () => {
  await browser?.close();
  await gw?.stop();
});

async function opsCall<T = unknown>(path: string, token: string, body?: unknown, method = 'POST'): Promise<T> {
  const r = await fetch(gw.url + path, { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, ...(body ? { body: JSON.stringify(body) } : {}) });
  const j = (await r.json()) as { success: boolean; value: T; message?: string };
  if (!j.success) throw new Error(`${path}: ${j.message}`);
  return j.value;
}
async function memberCall<T = unknown>(path: string, token: string, body?: unknown): Promise<T> {
  return opsCall<T>(path, token, body, body === undefined ? 'GET' : 'POST');
}

/** A real 2x2 PNG written by hand, so the proof upload carries a valid image. */
function tinyPng(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; return c >>> 0; });
  const crc = (b: Buffer) => { let c = 0xffffffff; for (const x of b) c = crcTable[(c ^ x) & 0xff]! ^ (c >>> 8); return (c ^ 0xffffffff) >>> 0; };
  const chunk = (type: string, data: Buffer) => { const len = Buffer.alloc(4); len.writeUInt32BE(data.length); const td = Buffer.concat([Buffer.from(type), data]); const c = Buffer.alloc(4); c.writeUInt32BE(crc(td)); return Buffer.concat([len, td, c]); };
  const ihdr = Buffer.alloc(13); ihdr.writeUInt32BE(2, 0); ihdr.writeUInt32BE(2, 4); ihdr[8] = 8; ihdr[9] = 2;
  const raw = Buffer.from([0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 255, 255, 255]);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** A funded player with a withdraw password and a bank account (set up through the API). */
async function fundedPlayer(pesos: number) {
  const account = `wd${Date.now() % 1e6}`;
  await createMember(gw, { account, password: 'abc12345' });
  const token = await apiLogin(gw, account, 'abc12345');
  const ops = { token: await operator.token() };
  await opsCall('/ops/api/adjustments', ops.token, { account, amount: pesos * 100, reason: 'e2e funding', requestId: `fund-${account}` });
  await memberCall('/wps/member/withdraw-password', token, { loginPassword: 'abc12345', newWithdrawPassword: '246810', confirmNewWithdrawPassword: '246810' });
  const bank = await memberCall<{ id: string }>('/wps/v2/bank-accounts', token, { bankName: 'BDO', accountName: 'Juan Dela Cruz', accountNumber: `00${String(Date.now() % 1e10).padStart(10, '0')}`, withdrawPassword: '246810' });
  return { account, token, bankId: bank.id, opsToken: ops.token };
}

async function opsSignIn(page: Page) {
  await operator.signIn(page);
  await page.getByTestId('ops-nav-withdrawals').waitFor({ timeout: 15_000 });
  // a reload keeps the operator signed in, with the token in no storage a script can read
  await page.reload();
  await page.getByTestId('ops-nav-withdrawals').waitFor({ timeout: 15_000 });
  expect(await page.evaluate(() => JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage }) + document.cookie)).not.toMatch(/opsToken|portal_ops/);
}

describe('withdrawal with live confirmation', () => {
  it('request, approve and pay in /ops from another browser, confirm a partial receipt with a proof', async () => {
    const p = await fundedPlayer(5_000);
    const player = await newPage(browser, { lang: 'EN' });
    await signInContext(player.context, p.token);
    const page = player.page;
    await page.goto(gw.url + '/member?tab=withdraw');
    await page.getByTestId(`withdraw-bank-${p.bankId}`).click();
    await page.getByTestId('withdraw-amount-field').locator('input').fill('1000');
    // A wrong transaction password first: refused; its message goes when the right one is sent.
    await page.getByTestId('withdraw-password-field').locator('input').fill('999999');
    await page.getByTestId('withdraw-submit').click();
    await expect.poll(() => page.getByText('The transaction password is not correct').count(), { timeout: 30_000 }).toBe(1);
    await page.getByTestId('withdraw-password-field').locator('input').fill('246810');
    await page.getByTestId('withdraw-submit').click();
    await page.getByTestId('withdraw-requested').waitFor({ timeout: 30_000 });
    expect(await page.getByText('The transaction password is not correct').count()).toBe(0);
    // the hold is already out of reach in the header
    await expect.poll(() => page.getByTestId('header-balance').innerText(), { timeout: 30_000 }).toContain('4,000.00');
    await expect.poll(() => realtimeConnected(page), { timeout: 30_000 }).toBe(true);
    const rows = await memberCall<{ list: Array<{ id: string; status: string }> }>('/wps/v2/withdrawals', p.token);
    const id = rows.list[0]!.id;

    // the operator, in a separate browser context
    const ops = await newContext(browser);
    const opsPage = await ops.newPage();
    await opsSignIn(opsPage);
    await opsPage.getByTestId('ops-nav-withdrawals').click();
    await opsPage.getByTestId(`ops-approve-${id}`).click();
    await opsPage.getByTestId('ops-dialog-submit').click();
    await opsPage.getByTestId('ops-withdrawals-tab-approved').click();
    await opsPage.getByTestId(`ops-paid-${id}`).click();
    await opsPage.getByTestId('ops-dialog-reference').fill('BDO-REF-778899');
    await opsPage.getByTestId('ops-dialog-submit').click();
    await opsPage.getByTestId(`ops-withdrawal-row-${id}`).waitFor({ state: 'detached', timeout: 30_000 });

    // the player's page learns of it live and shows the auto-receive timer
    const confirm = page.getByTestId(`withdrawal-confirm-${id}`);
    await confirm.waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('withdrawal-countdown').first().innerText()).toMatch(/\d+:\d\d/);
    await page.getByTestId('confirm-choose-partially_received').click();
    await page.getByTestId('confirm-received-amount').fill('400');
    // A text file named like an image is refused on the page (typed by its bytes), not at submit.
    await page.getByTestId('confirm-proof-input').setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not an image at all') });
    await expect.poll(() => page.getByText('Only png or jpg images').count(), { timeout: 15_000 }).toBe(1);
    await page.getByTestId('confirm-proof-input').setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: tinyPng() });
    await page.getByTestId('confirm-submit').click();
    const done = page.getByTestId(`withdrawal-confirm-done-${id}`);
    await done.waitFor({ timeout: 15_000 });
    expect(await done.getAttribute('data-result')).toBe('partially_received');
    expect(await page.getByTestId('withdrawal-remaining').innerText()).toContain('600.00');
    await snap(page, 'withdrawal-partial');

    // the operator sees the result and the proof
    await opsPage.getByTestId('ops-withdrawals-tab-done').click();
    await opsPage.getByTestId('ops-withdrawals-final-partially_received').click();
    await opsPage.getByTestId(`ops-withdrawal-row-${id}`).waitFor({ timeout: 30_000 });
    await opsPage.getByTestId(`ops-proofs-${id}`).click();
    await opsPage.getByTestId(`ops-proof-${id}-0`).or(opsPage.getByTestId(`ops-proof-${id}-1`)).first().waitFor({ timeout: 30_000 });
    await snap(opsPage, 'ops-proof');
    await ops.close();
    await player.context.close();
  });

  it('a transaction password set in another tab: the withdraw tab left open gives way to the withdrawal form (it kept asking for a first one)', async () => {
    const account = `wdtx${Date.now() % 1e6}`;
    await createMember(gw, { account, password: 'abc12345' });
    const token = await apiLogin(gw, account, 'abc12345');
    const { context, page } = await newPage(browser, { lang: 'TY' });
    await signInContext(context, token);
    await page.goto(gw.url + '/member?tab=withdraw');
    const form = page.getByTestId('withdraw-password-form');
    await form.waitFor({ timeout: 30_000 });
    // the socket's first hello reads everything again: after it, the page has nothing more to read
    await expect.poll(() => realtimeConnected(page), { timeout: 30_000 }).toBe(true);
    await page.waitForTimeout(1_000);
    // meanwhile, elsewhere (another tab's security centre)
    await memberCall('/wps/member/withdraw-password', token, { loginPassword: 'abc12345', newWithdrawPassword: '246810', confirmNewWithdrawPassword: '246810' });
    // this tab's form, sent: the server says one is set; the form gives way (no second password is asked)
    const inputs = form.locator('input[type="password"]');
    await inputs.nth(0).fill('abc12345');
    await inputs.nth(1).fill('135790');
    await inputs.nth(2).fill('135790');
    await form.locator('button[type="submit"]').click();
    await form.waitFor({ state: 'detached', timeout: 15_000 });
    await page.getByTestId('withdraw-form').waitFor({ timeout: 15_000 });
    await context.close();
  });

  it('an unconfirmed paid withdrawal becomes auto-received, live on the page', async () => {
    const p = await fundedPlayer(3_000);
    const w = await memberCall<{ id: string }>('/wps/v2/withdrawals', p.token, { bankAccountId: p.bankId, amount: 50_000, withdrawPassword: '246810', requestId: `auto-${p.account}` });
    const player = await newPage(browser, { lang: 'EN' });
    await signInContext(player.context, p.token);
    await player.page.goto(gw.url + '/member?tab=withdraw');
    await expect.poll(() => realtimeConnected(player.page), { timeout: 30_000 }).toBe(true);
    // The player sees the request in the list first (the withdraw panel is loaded and listening),
    // then the operator acts: the rest arrives live.
    await player.page.getByTestId(`withdraw-row-${w.id}`).waitFor({ timeout: 30_000 });
    await opsCall(`/ops/api/withdrawals/${w.id}/approve`, p.opsToken, {});
    await opsCall(`/ops/api/withdrawals/${w.id}/paid`, p.opsToken, { payoutReference: 'AUTO-1' });
    await player.page.getByTestId(`withdrawal-confirm-${w.id}`).waitFor({ timeout: 15_000 });
    // QA time travel instead of waiting the merchant's minutes; the job on the gateway does the rest
    await gw.post(`/wps/dev/withdrawals/${w.id}/due`, {});
    const done = player.page.getByTestId(`withdrawal-confirm-done-${w.id}`);
    await done.waitFor({ timeout: 20_000 });
    expect(await done.getAttribute('data-result')).toBe('auto_received');
    const after = await memberCall<{ status: string }>(`/wps/v2/withdrawals/${w.id}`, p.token);
    expect(after.status).toBe('auto_received');
    await player.context.close();
  });
});
