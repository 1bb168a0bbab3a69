import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { GatewayProcess } from './support/gateway-process.ts';
import { launchBrowser, newPage, snap } from './support/browser.ts';
import { realtimeConnected } from './support/portal-ui.ts';
import { apiLogin, signInContext } from './support/session.ts';
import { DemoOperator } from './support/ops-operator.ts';
import { gatewayCall } from './support/player-flow.ts';

/**
 * Agent contracts across two browsers (issue 11): a top agent (with its house contract) offers its
 * downline agent daily wages; the downline, on the home page, gets the offer popup at once and accepts;
 * the upline, on another page, is told without a reload. Then a player under the downline bets, the
 * settlement runs on the test clock, and the downline's header balance moves live and its statement opens.
 */
let gw: GatewayProcess;
let browser: Browser;
let opsToken: string;
const PASSWORD = 'abc12345';

/**
 * The gateway as GatewayProcess.start runs it, with more patience for its first boot: on a machine
 * shared with other suites, booting (migrations on PGlite) can take longer than the helper's 60 s.
 */
const startGateway = () => GatewayProcess.start({}, { bootTimeoutMs: 300_000 });

beforeAll(async () => {
  gw = await startGateway();
  browser = await launchBrowser();
  opsToken = await (await DemoOperator.prepare(gw, 'Ops-agents-pass-1')).token();
}, 420_000);
afterAll(async () => {
  await browser?.close();
  await gw?.stop();
});

const call = gatewayCall(() => gw);

const pesos = (minor: number) => (minor / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const wages = (rate: number) => ({ kind: 'dailyWages', rate, activeMembers: 0, betAmount: 0, validBetPeriod: 'daily' });

async function member(account: string, type: number, parentAccount?: string) {
  const { memberId } = await gw.post<{ memberId: number }>('/wps/dev/members', { account, password: PASSWORD, type, ...(parentAccount ? { parentAccount } : {}) });
  return { account, memberId, token: await apiLogin(gw, account, PASSWORD) };
}

type Contract = { id: number; status: string; downlineId: number };

describe('agent contracts in two browsers', () => {
  it('offer, live popup and acceptance, live notice to the upline; settlement pays the downline live with a statement', async () => {
    const tag = Date.now() % 1e6;
    const upline = await member(`agu${tag}`, 2);
    const downline = await member(`agd${tag}`, 2, upline.account);
    // the top agent's own contract with the house: 2 % of its team's valid bets, daily
    await gw.post('/wps/dev/agent-contracts/house', { memberId: upline.memberId, terms: wages(200) });

    const up = await newPage(browser, { lang: 'EN' });
    await signInContext(up.context, upline.token);
    await up.page.goto(gw.url + '/');
    const down = await newPage(browser, { lang: 'EN' });
    await signInContext(down.context, downline.token);
    if (process.env.AG_DEBUG) {
      down.page.on('response', (r) => { if (r.url().includes('/wps/agent')) console.log('DOWN', r.status(), r.url()); });
      down.page.on('console', (m) => console.log('DOWN console', m.type(), m.text().slice(0, 300)));
    }
    await down.page.goto(gw.url + '/');
    await expect.poll(() => realtimeConnected(up.page), { timeout: 90_000 }).toBe(true);
    await expect.poll(() => realtimeConnected(down.page), { timeout: 90_000 }).toBe(true);
    // signed in on both pages (the balance is a session read) and the sockets joined with that session
    await up.page.getByTestId('header-balance').waitFor({ timeout: 90_000 });
    await down.page.getByTestId('header-balance').waitFor({ timeout: 90_000 });
    await expect.poll(() => realtimeConnected(up.page), { timeout: 90_000 }).toBe(true);
    await expect.poll(() => realtimeConnected(down.page), { timeout: 90_000 }).toBe(true);
    const downNavigations: string[] = [];
    down.page.on('framenavigated', (f) => f === down.page.mainFrame() && downNavigations.push(f.url()));
    const upNavigations: string[] = [];
    up.page.on('framenavigated', (f) => f === up.page.mainFrame() && upNavigations.push(f.url()));

    // the upline offers 1 % daily wages
    const offered = await call<Contract>('/wps/agent/contracts', upline.token, { downlineId: downline.memberId, terms: wages(100) });
    expect(offered.status).toBe('offered');

    // the downline, on the home page, sees the popup without a reload: kind, rate, upline
    const popup = down.page.getByTestId('contract-offer-popup');
    await popup.waitFor({ timeout: 90_000 }).catch(async (e) => {
      const html = await down.page.content();
      throw new Error(`${String(e)}\n${html.slice(html.indexOf('<body'), html.indexOf('<body') + 200)}\n${[...html.matchAll(/data-modal="[^"]*"|contract-offer[a-z-]*/g)].map((m) => m[0]).join(' ')}`);
    });
    expect(await popup.getAttribute('data-contract-id')).toBe(String(offered.id));
    expect(await down.page.getByTestId('contract-offer-kind').innerText()).toBe('Daily wages');
    expect(await down.page.getByTestId('contract-offer-rate').innerText()).toBe('1%');
    expect(await down.page.getByTestId('contract-offer-upline').innerText()).toBe(upline.account);
    await snap(down.page, 'agents-contract-offer-popup');
    // The list of open offers answers slowly from here on (a loaded server): the accepted offer stays in
    // the page's cached list for a while after the popup is closed, and must not open again from it.
    const offersList = /\/wps\/agent\/contracts\?[^#]*status=offered/;
    await down.page.route(offersList, async (route) => {
      await new Promise((r) => setTimeout(r, 2_000));
      await route.continue().catch(() => undefined);
    });
    await down.page.getByTestId('contract-offer-accept').click();
    await expect.poll(() => popup.getAttribute('data-state'), { timeout: 90_000 }).toBe('accepted');
    await down.page.getByTestId('contract-offer-close').click();
    const offerLayer = down.page.locator('[data-modal-layer="contractOfferModal"]');
    await expect.poll(() => offerLayer.count()).toBe(0);
    await down.page.waitForTimeout(3_000);
    expect(await offerLayer.count()).toBe(0);
    await down.page.unroute(offersList);

    // the upline is told at once, on the page it is on
    const notice = up.page.getByTestId('contract-answer-notice');
    await notice.waitFor({ timeout: 90_000 });
    expect(await notice.getAttribute('data-contract-id')).toBe(String(offered.id));
    expect(await notice.getAttribute('data-status')).toBe('accepted');
    expect(await notice.innerText()).toContain('accepted');
    await snap(up.page, 'agents-contract-accepted-notice');
    const given = await call<{ list: Contract[] }>('/wps/agent/contracts?role=given', upline.token);
    expect(given.list.find((c) => c.id === offered.id)?.status).toBe('active');

    // a player under the downline bets ₱10 x 5 on the house slot (valid bets of the downline's team)
    const player = await member(`agp${tag}`, 0, downline.account);
    await call('/ops/api/adjustments', opsToken, { account: player.account, amount: 100_000, reason: 'e2e agents', requestId: `ag-${player.account}` });
    const launch = await call<{ url: string }>('/wps/game/launchGame', player.token, { nodeId: 'HOUSE-SLOT1' });
    const u = new URL(launch.url, gw.url);
    const seat = await call<{ session: string }>('/house/api/session', null, { token: u.searchParams.get('token'), game: u.searchParams.get('game') });
    for (let i = 0; i < 5; i++) await call('/house/api/slot/spin', null, { stake: 1000 }, { headers: { 'x-house-session': seat.session } });

    const before = (await call<{ balance: number }>('/wps/v2/wallets/balance', downline.token)).balance;
    await expect.poll(() => down.page.getByTestId('header-balance').innerText(), { timeout: 90_000 }).toContain(pesos(before));

    // the test clock: tomorrow, so today's daily period is closed and settled through the job's code path
    const at = new Date(Date.now() + 36 * 3600_000).toISOString();
    const run = await gw.post<{ settled: Array<{ kind: string; inserted: number; paid: number }> }>('/wps/dev/agent-settlement/run', { kind: 'dailyWages', at });
    expect(run.settled.some((s) => s.kind === 'dailyWages' && s.paid > 0)).toBe(true);

    // 1 % of ₱50 valid bets = ₱0.50 to the downline, live in its header and in a notice
    const after = (await call<{ balance: number }>('/wps/v2/wallets/balance', downline.token)).balance;
    expect(after - before).toBe(50);
    await expect.poll(() => down.page.getByTestId('header-balance').innerText(), { timeout: 90_000 }).toContain(pesos(after));
    const payout = down.page.getByTestId('payout-notice');
    await payout.waitFor({ timeout: 90_000 });
    await down.page.getByTestId('payout-notice-statement').click();
    const statement = down.page.getByTestId('payout-statement');
    await expect.poll(() => statement.getByTestId('statement-amount').count(), { timeout: 90_000 }).toBe(1);
    expect(await statement.getByTestId('statement-amount').innerText()).toContain('0.50');
    expect(await statement.getByTestId('statement-rate').innerText()).toContain('1%');
    expect(await statement.getByTestId('statement-base').innerText()).toContain('50.00');
    // the explanation: codes from the server, worded by the client
    const steps = statement.getByTestId('statement-steps').locator('li');
    expect(await steps.evaluateAll((els) => els.map((e) => e.getAttribute('data-step')))).toEqual(['team', 'baseValidBets', 'noConditions', 'amount']);
    const amountStep = await statement.locator('li[data-step="amount"]').innerText();
    expect(amountStep).toMatch(/^Amount = 1% of .*50\.00, rounded down = .*0\.50\.$/);
    await snap(down.page, 'agents-payout-statement');

    // the upline ends the contract: the downline is told at once, with the reason (it used to vanish
    // from its menu without a word); the upline, who did it, gets no notice of its own act
    await call(`/wps/agent/contracts/${offered.id}/terminate`, upline.token, {});
    const ended = down.page.getByTestId('contract-answer-notice');
    await ended.waitFor({ timeout: 90_000 });
    expect(await ended.getAttribute('data-side')).toBe('downline');
    expect(await ended.innerText()).toMatch(/Your contract has ended — Daily wages 1%\s*· Ended by the upline/);
    await snap(down.page, 'agents-contract-ended-notice');
    // (the upline's notice still shows the acceptance, not its own termination)
    expect(await up.page.getByTestId('contract-answer-notice').getAttribute('data-status')).toBe('accepted');
    // the upline's notices stack (its payout notice came beside the contract notice and covered it): both close
    for (const id of ['contract-answer-notice', 'payout-notice']) {
      const close = up.page.getByTestId(`${id}-close`);
      if (await close.count()) await close.click({ timeout: 10_000 });
      expect(await up.page.getByTestId(id).count(), id).toBe(0);
    }

    expect(downNavigations).toEqual([]);
    expect(upNavigations).toEqual([]);
    await up.context.close();
    await down.context.close();
  }, 420_000);

  it('an offer waiting for an agent whose password must change first shows after the change, not over it (its Accept could only fail)', async () => {
    const tag = Date.now() % 1e6;
    const upline = await member(`agp${tag}`, 2);
    await gw.post('/wps/dev/agent-contracts/house', { memberId: upline.memberId, terms: wages(200) });
    const account = `agq${tag}`;
    const { memberId } = await gw.post<{ memberId: number }>('/wps/dev/members', { account, password: PASSWORD, type: 2, parentAccount: upline.account, mustChangePassword: true });
    const offered = await call<Contract>('/wps/agent/contracts', upline.token, { downlineId: memberId, terms: wages(100) });
    const { context, page } = await newPage(browser, { lang: 'TY' });
    await page.setViewportSize({ width: 390, height: 844 });
    await signInContext(context, await apiLogin(gw, account, PASSWORD));
    await page.goto(gw.url + '/agentHome');
    const change = page.locator('[data-modal="changePassModal"]');
    await change.waitFor({ timeout: 30_000 });
    await page.waitForTimeout(2_000);
    expect(await page.getByTestId('contract-offer-popup').count()).toBe(0);
    await change.locator('input[name="newPassword"]').fill('fresh12345');
    await change.locator('input[name="confirmNewPassword"]').fill('fresh12345');
    await change.locator('button[type="submit"]').click();
    await page.getByTestId('contract-offer-popup').waitFor({ timeout: 30_000 });
    expect(await change.count()).toBe(0);
    await page.getByTestId('contract-offer-accept').click();
    await expect.poll(() => call<{ list: Contract[] }>('/wps/agent/contracts', upline.token).then((p) => p.list.find((c) => c.id === offered.id)?.status)).toBe('active');
    await context.close();
  });

  it('on a phone, a link to an item after the contract items keeps its tab in sight when those items arrive', async () => {
    const tag = Date.now() % 1e6;
    const top = await member(`agm${tag}`, 2);
    // Three house contracts: their three items come before Real-time salary in the menu.
    await gw.post('/wps/dev/agent-contracts/house', { memberId: top.memberId, terms: wages(200) });
    await gw.post('/wps/dev/agent-contracts/house', { memberId: top.memberId, terms: { kind: 'dividend', rate: 3000, activeMembers: 0, betAmount: 0, profitLossPeriod: 'daily' } });
    await gw.post('/wps/dev/agent-contracts/house', { memberId: top.memberId, terms: { kind: 'hourlySalary', rate: 100, activeMembers: 0, betAmount: 0, validBetPeriod: 'hourly' } });
    const { context, page } = await newPage(browser, { lang: 'TY' });
    await page.setViewportSize({ width: 390, height: 844 });
    await signInContext(context, top.token);
    // The flags (which contract items show) arrive after the menu has drawn, as on a slow line.
    await page.route(/\/wps\/member\/info\/funds\/consolidated/, async (route) => {
      await new Promise((r) => setTimeout(r, 1_500));
      await route.continue().catch(() => undefined);
    });
    await page.goto(gw.url + '/agentHome?item=agentRealtimeSalary');
    await page.getByTestId('ao-item-agentDailyWages2').waitFor({ timeout: 30_000 });
    const tab = page.getByTestId('ao-item-agentRealtimeSalary');
    const inSight = () => tab.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return r.left >= 0 && r.right <= document.documentElement.clientWidth;
    });
    await expect.poll(inSight, { timeout: 10_000 }).toBe(true);
    expect(await tab.getAttribute('aria-current')).toBe('page');
    await snap(page, 'agents-menu-390-realtime');
    await context.close();
  }, 120_000);
});
