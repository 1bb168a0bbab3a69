import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { GatewayProcess } from './support/gateway-process.ts';
import { launchBrowser, newPage } from './support/browser.ts';
import { createMember } from './support/portal-ui.ts';
import { DemoOperator } from './support/ops-operator.ts';
import { apiLogin, keepSessionCookie, keptToken, signInContext } from './support/session.ts';
import { opsCalls } from '@portal/contracts/api/ops';

/**
 * Responsible gaming in a real browser: the member centre page in EN and TY (screenshots
 * /tmp/rg-en.png, /tmp/rg-ty.png), a loss limit saved from the page, and a self-exclusion from one
 * browser that logs the player out of another at once; a loss limit that stops a house slot with
 * its message on the game page; an excluded player who logs in to a restricted session (withdraw
 * and the RG page open, a game launch refused).
 */
let gw: GatewayProcess;
let browser: Browser;
let opsToken = '';
beforeAll(async () => {
  // A loaded machine boots PGlite slowly: give the gateway time.
  gw = await GatewayProcess.start({}, { bootTimeoutMs: 240_000 });
  browser = await launchBrowser();
  opsToken = await (await DemoOperator.prepare(gw, 'Ops-rg-e2e-pass-1')).token();
});
afterAll(async () => {
  await browser?.close();
  await gw?.stop();
});

const PASSWORD = 'login12345';

describe('responsible gaming page', () => {
  it('shows the page in EN and TY, saves a loss limit, and a self-exclusion logs out the other browser', async () => {
    await createMember(gw, { account: 'rgplayer1', password: PASSWORD });
    const a = await newPage(browser, { lang: 'EN' });
    await signInContext(a.context, await apiLogin(gw, 'rgplayer1', PASSWORD), gw.url);
    await a.page.goto(`${gw.url}/member?tab=responsibleGaming`);
    await a.page.getByTestId('rg-panel').waitFor();
    await a.page.getByTestId('rg-kind').selectOption('loss');
    await a.page.getByTestId('rg-amount').fill('50');
    // What the page's RG calls answered, for the diagnostic below.
    const rgCalls: string[] = [];
    a.page.on('response', (r) => { if (r.url().includes('/rg/')) rgCalls.push(`${r.request().method()} ${new URL(r.url()).pathname} ${r.status()}`); });
    a.page.on('requestfailed', (r) => { if (r.url().includes('/rg/')) rgCalls.push(`${r.method()} ${new URL(r.url()).pathname} failed: ${r.failure()?.errorText}`); });
    await a.page.getByTestId('rg-set-limit').click();
    await a.page.getByTestId('rg-limit-loss-day').waitFor();
    expect(await a.page.getByTestId('rg-limit-result').textContent()).toContain('The limit applies now');
    const limitSet = a.page.getByTestId('rg-events').getByText('Limit set');
    // Live, without a reload: the list's first read may still have been on its way when the save was made
    // (seen in a loaded CI run); the portal's query client reads it again then (lib/query-client).
    await limitSet.waitFor({ timeout: 30_000 }).catch(async (e: unknown) => {
      console.log(`[rg e2e] events list without "Limit set" 30 s after saving: ${JSON.stringify(await a.page.getByTestId('rg-events').innerText().catch(() => '?'))}; RG calls: ${rgCalls.join(', ')}`);
      throw e;
    });
    // The history says what was set (it said only "Limit set · by you").
    expect(await limitSet.innerText()).toMatch(/Limit set · Net loss · Day · .*50\.00 · by you/);
    // A reality-check choice is saved as it is picked, and says so (it said nothing).
    await a.page.getByTestId('rg-reality').selectOption('30');
    await a.page.getByTestId('rg-session-saved').waitFor();
    const sessionSet = a.page.getByTestId('rg-events').getByText('Reality check / session time set');
    await sessionSet.waitFor();
    expect(await sessionSet.innerText()).toContain('Remind me every: 30 minutes · End my session after: Off');
    await a.page.screenshot({ path: '/tmp/rg-en.png', fullPage: true });

    const b = await newPage(browser, { lang: 'TY' });
    await signInContext(b.context, await apiLogin(gw, 'rgplayer1', PASSWORD), gw.url);
    await b.page.goto(`${gw.url}/member?tab=responsibleGaming`);
    await b.page.getByTestId('rg-panel').waitFor();
    await b.page.getByText('Responsableng paglalaro').first().waitFor();
    await b.page.screenshot({ path: '/tmp/rg-ty.png', fullPage: true });
    expect(await keptToken(b.page)).not.toBeNull();

    await a.page.getByTestId('rg-self-6m').click();
    await a.page.getByTestId('rg-exclude-yes').click();
    // the other browser's session ends on the server at once: its kept session is gone and a reload shows it signed out
    await a.page.getByTestId('rg-exclude-confirm').waitFor({ state: 'detached' }).catch(() => undefined);
    await expect.poll(() => keptToken(b.page), { timeout: 30_000 }).toBeNull();
    await b.page.reload();
    await b.page.getByTestId('login-button').waitFor();
    expect(await keptToken(a.page)).toBeNull();
    await a.context.close();
    await b.context.close();
  });

  it('a session time limit is told 5 minutes before it ends (it said nothing), in Tagalog', async () => {
    await createMember(gw, { account: 'rgplayer5', password: PASSWORD });
    const token = await apiLogin(gw, 'rgplayer5', PASSWORD);
    const set = await fetch(`${gw.url}/wps/v2/rg/session`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ realityCheckMinutes: null, sessionLimitMinutes: 30 }) });
    expect(set.status).toBe(200);
    const ty = await newPage(browser, { lang: 'TY' });
    // The page's clock, moved on below: the warning's timer is counted from the server's session start.
    await ty.page.clock.install();
    await signInContext(ty.context, token, gw.url);
    await ty.page.goto(`${gw.url}/`);
    await ty.page.getByTestId('account-menu-button').waitFor({ timeout: 30_000 });
    await ty.page.waitForTimeout(1_000);
    expect(await ty.page.getByTestId('rg-session-limit').count()).toBe(0);
    await ty.page.clock.fastForward('26:00');
    const notice = ty.page.getByTestId('rg-session-limit');
    await notice.waitFor({ timeout: 15_000 });
    expect(await notice.innerText()).toMatch(/Matatapos ang iyong session sa loob ng [345] minuto/);
    await ty.page.getByTestId('rg-sl-ok').click();
    await notice.waitFor({ state: 'detached' });
    // Closed, it stays closed (it came straight back once).
    await ty.page.clock.fastForward('01:00');
    await ty.page.waitForTimeout(1_000);
    expect(await notice.count()).toBe(0);
    await ty.context.close();
  });
});

describe('a family member asks for a player\'s exclusion', () => {
  it('from the footer on a first visit (the form opened only on a second click), and from /ops for a caller', async () => {
    await createMember(gw, { account: 'rgfamily1', password: PASSWORD });
    const { context, page } = await newPage(browser, { lang: 'EN' });
    await page.goto(gw.url + '/');
    await page.getByTestId('footer-rg-family').click();
    const form = page.getByTestId('rg-family-form');
    await form.waitFor({ timeout: 15_000 });
    await form.locator('input[name="playerAccount"]').fill('rgfamily1');
    await form.locator('input[name="requesterName"]').fill('Maria Santos');
    await form.locator('input[name="requesterContact"]').fill('+63 917 555 0101');
    await form.locator('textarea[name="reason"]').fill('He has been losing the household money for months.');
    await form.locator('button[type="submit"]').click();
    // The built client's contract schemas load on first use: the check before sending threw there.
    await expect.poll(() => page.getByTestId('rg-family-done').innerText().catch(() => ''), { timeout: 15_000 }).toMatch(/reference FX\d+/);
    await context.close();

    const ops = await newPage(browser, { lang: 'EN' });
    await keepSessionCookie(ops.context, { name: 'portal_ops', path: opsCalls.keepSession.path }, opsToken, gw.url);
    await ops.page.goto(gw.url + '/ops/rg');
    await ops.page.getByTestId('ops-rg-family-form').waitFor({ timeout: 30_000 });
    await ops.page.getByTestId('ops-rg-family-player').fill('rgfamily1');
    await ops.page.getByTestId('ops-rg-family-name').fill('Jose Santos');
    await ops.page.getByTestId('ops-rg-family-contact').fill('+63 917 555 0102');
    await ops.page.getByTestId('ops-rg-family-reason').fill('Called the hotline: asks to exclude his brother.');
    await ops.page.getByTestId('ops-rg-family-submit').click();
    await ops.page.getByTestId('ops-rg-family-created').waitFor({ timeout: 15_000 });
    // Both requests wait for review in the console's list.
    const list = await call<{ list: Array<{ playerAccount: string; status: string }> }>('/ops/api/rg/family-requests?status=pending&pageNo=1&pageSize=20', opsToken);
    expect(list.value.list.filter((r) => r.playerAccount === 'rgfamily1')).toHaveLength(2);
    await ops.context.close();
  });
});

async function call<T = unknown>(path: string, token: string | null, body?: unknown): Promise<{ status: number; code?: string; value: T }> {
  const r = await fetch(gw.url + path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const j = (await r.json()) as { success: boolean; value: T; code?: string };
  return { status: r.status, value: j.value, ...(j.code ? { code: j.code } : {}) };
}

/** A member with `pesos` on the balance (an operator's adjustment) and an API session. */
async function fundedPlayer(account: string, pesos: number) {
  await createMember(gw, { account, password: PASSWORD });
  const token = await apiLogin(gw, account, PASSWORD);
  const adj = await call('/ops/api/adjustments', opsToken, { account, amount: pesos * 100, reason: 'e2e rg', requestId: `rg-${account}` });
  expect(adj.status).toBe(200);
  return token;
}

/** One spin on the house slot page: the server's answer (success, code). */
async function spin(page: Page): Promise<{ success: boolean; code?: string }> {
  const [res] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/slot/spin') && r.request().method() === 'POST', { timeout: 15_000 }),
    page.getByTestId('house-spin').click(),
  ]);
  return (await res.json()) as { success: boolean; code?: string };
}

describe('limits and exclusions at play', () => {
  it('a player with a loss limit is stopped by it while playing the house slot, with the message on the game page', async () => {
    const token = await fundedPlayer('rglossplayer', 500);
    // a ₱10 daily loss limit and ₱10 spins: a spin passes only while the whole stake still fits the limit,
    // that is while the player is not behind (net loss bets - wins), so the first time the player is
    // behind the next spin is refused (a win only postpones it)
    expect((await call('/wps/v2/rg/limits', token, { kind: 'loss', period: 'day', amount: 1_000 })).status).toBe(200);
    const { context, page } = await newPage(browser, { lang: 'EN' });
    await signInContext(context, token, gw.url);
    const launch = await call<{ url: string }>('/wps/game/launchGame', token, { nodeId: 'HOUSE-SLOT1' });
    expect(launch.status).toBe(200);
    await page.goto(gw.url + launch.value.url);
    await page.getByTestId('house-page').waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByTestId('house-seed-hash').innerText(), { timeout: 15_000 }).toMatch(/^[0-9a-f]{64}$/);
    await page.getByTestId('house-stake-1000').click();
    let refused: { success: boolean; code?: string } | null = null;
    for (let i = 0; i < 15 && !refused; i++) {
      const r = await spin(page);
      if (!r.success) refused = r;
      else await expect.poll(() => page.getByTestId('house-spin').isEnabled(), { timeout: 30_000 }).toBe(true);
    }
    // A player whose wins kept them ahead for all 15 spins (it happens: one early big win) lowers the
    // limit below the stake while the game is open (a decrease applies at once): the next spin must be
    // refused by it all the same. Before, the test spun up to 40 times and failed when no refusal came.
    let limit = 1_000;
    if (!refused) {
      limit = 500;
      expect((await call('/wps/v2/rg/limits', token, { kind: 'loss', period: 'day', amount: limit })).status).toBe(200);
      refused = await spin(page);
    }
    expect(refused?.code).toBe('RG_LIMIT_REACHED');
    await expect.poll(() => page.getByTestId('house-error').innerText(), { timeout: 30_000 }).toContain('responsible gaming limit');
    await page.screenshot({ path: '/tmp/rg-loss-limit.png' });
    // the RG page shows the loss used against the limit
    const state = await call<{ limits: Array<{ kind: string; used: number; amount: number }> }>('/wps/v2/rg/state', token);
    const loss = state.value.limits.find((l) => l.kind === 'loss')!;
    expect(loss.amount).toBe(limit);
    if (limit === 1_000) expect(loss.used).toBeGreaterThan(0);
    expect(loss.used + 1_000).toBeGreaterThan(loss.amount);
    await context.close();
  });

  it('an excluded player logs in to a restricted session: the withdraw and RG pages open, the deposit is closed, a game does not launch', async () => {
    const token = await fundedPlayer('rgexcluded1', 300);
    expect((await call('/wps/v2/rg/exclusion', token, { kind: 'cooling', duration: '7d' })).status).toBe(200);
    // the login itself (password, bot check) succeeds: it opens a restricted session
    const restricted = await apiLogin(gw, 'rgexcluded1', PASSWORD);
    const { context, page } = await newPage(browser, { lang: 'EN' });
    await signInContext(context, restricted, gw.url);
    await page.goto(gw.url + '/');
    await page.getByTestId('header-balance').waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('header-balance').innerText(), { timeout: 15_000 }).toContain('300.00');
    // every page says the session is restricted, with the way to the money
    expect(await page.getByTestId('rg-restricted-banner').innerText({ timeout: 15_000 })).toContain('you can still withdraw');
    // the withdraw page opens (the balance can be taken out)
    await page.goto(gw.url + '/member?tab=withdraw');
    await page.getByTestId('withdraw-panel').waitFor({ timeout: 15_000 });
    await page.screenshot({ path: '/tmp/rg-excluded-withdraw.png', fullPage: true });
    // the RG page says why and until when
    await page.goto(gw.url + '/member?tab=responsibleGaming');
    await page.getByTestId('rg-excluded').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('rg-excluded').innerText()).toContain('cooling-off');
    // the deposit item is closed (no form the server would refuse), with the end date
    await page.goto(gw.url + '/member?tab=depositv2');
    expect(await page.getByTestId('rg-closed-deposit').innerText({ timeout: 15_000 })).toContain('Deposits are closed for your account');
    expect(await page.getByTestId('deposit-submit').count()).toBe(0);
    // a game does not launch: the exclusion dialog says so, and no launch call is sent (the server refuses it anyway)
    const launches: string[] = [];
    page.on('request', (r) => { if (r.url().includes('launchGame')) launches.push(r.url()); });
    await page.goto(gw.url + '/');
    const card = page.getByTestId('home-hot-games').getByTestId('game-card').filter({ hasText: 'Lucky Peso Reels' }).first();
    await card.hover();
    await card.getByRole('button', { name: /play now/i }).first().click();
    await page.getByTestId('launch-dialog-excluded').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('launch-dialog-excluded').innerText()).toContain('Games are closed for your account');
    expect(launches).toEqual([]);
    await page.screenshot({ path: '/tmp/rg-excluded-launch.png' });
    await context.close();
  });
});
