import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { GatewayProcess } from './support/gateway-process.ts';
import { launchBrowser, newPage, snap } from './support/browser.ts';
import { createMember, realtimeConnected } from './support/portal-ui.ts';
import { apiLogin, signInContext } from './support/session.ts';
import { DemoOperator } from './support/ops-operator.ts';
import { gatewayCall } from './support/player-flow.ts';

/**
 * Games in the browser: a guest pressing play gets the login popup; a real player plays the house
 * slot (bets through the vendor API on the ledger) and sees the balance and the betting record
 * change; a big win reaches the home page's winner board in another browser.
 */
let gw: GatewayProcess;
let browser: Browser;
let opsToken = '';

beforeAll(async () => {
  gw = await GatewayProcess.start();
  browser = await launchBrowser();
  opsToken = await (await DemoOperator.prepare(gw, 'Ops-games-pass-1')).token();
});
afterAll(async () => {
  await browser?.close();
  await gw?.stop();
});

const call = gatewayCall(() => gw);

/** Presses spin and returns the server's settled answer (balance after the round, and its win), in minor units. */
async function spinOnce(page: Page): Promise<{ balance: number; win: number }> {
  const [res] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/slot/spin') && r.request().method() === 'POST', { timeout: 15_000 }),
    page.getByTestId('house-spin').click(),
  ]);
  const body = (await res.json()) as { success: boolean; value: { balance: number; win: number } };
  expect(body.success).toBe(true);
  return body.value;
}

/** Minor units as the page shows them: 199900 -> '1,999.00'. */
const pesos = (minor: number) => (minor / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

async function fundedPlayer(amount: number) {
  const account = `gm${Date.now() % 1e6}`;
  await createMember(gw, { account, password: 'abc12345' });
  const token = await apiLogin(gw, account, 'abc12345');
  await call('/ops/api/adjustments', opsToken, { account, amount: amount * 100, reason: 'e2e games', requestId: `g-${account}` });
  return { account, token };
}

describe('games in Chromium', () => {
  it('a guest who presses play gets the login popup and nothing launches', async () => {
    const { context, page } = await newPage(browser, { lang: 'EN' });
    await page.goto(gw.url + '/');
    const card = page.getByTestId('home-hot-games').getByTestId('game-card').first();
    await card.hover();
    await card.getByRole('button', { name: /play now/i }).first().click();
    await page.locator('[data-modal="loginPopupModal"]').waitFor({ timeout: 30_000 });
    expect(new URL(page.url()).pathname).toBe('/');
    await context.close();
  });

  it('the cockfight entry starts its game directly: a guest is asked to log in, a player gets the (simulated) fight', async () => {
    const guest = await newPage(browser, { lang: 'EN' });
    await guest.page.goto(gw.url + '/');
    await guest.page.locator('[data-nav="COCKFIGHT"] a').first().click();
    await guest.page.locator('[data-modal="loginPopupModal"]').waitFor({ timeout: 30_000 });
    await guest.context.close();
    const p = await fundedPlayer(10);
    const player = await newPage(browser, { lang: 'EN' });
    await signInContext(player.context, p.token);
    await player.page.goto(gw.url + '/');
    await player.page.getByTestId('header-balance').waitFor({ timeout: 15_000 });
    await player.page.locator('[data-nav="COCKFIGHT"] a').first().click();
    await player.page.waitForURL((u) => u.origin === gw.simUrl, { timeout: 30_000 });
    await player.page.getByTestId('sim-side-home').waitFor({ timeout: 15_000 });
    await player.context.close();
  });

  it('a guest tries the house slot for free with play money', async () => {
    const { context, page } = await newPage(browser, { lang: 'EN' });
    await page.goto(gw.url + '/');
    const card = page.getByTestId('home-hot-games').getByTestId('game-card').filter({ hasText: 'Lucky Peso Reels' }).first();
    await card.hover();
    await card.getByRole('button', { name: /free trial/i }).click();
    await page.getByTestId('house-free-play').waitFor({ timeout: 15_000 });
    expect(new URL(page.url()).searchParams.get('mode')).toBe('free');
    await expect.poll(() => page.getByTestId('house-balance').innerText(), { timeout: 30_000 }).toContain('2,000.00');
    // A spin may win back exactly its stake (about 6% of spins), so check the settled answer, not a change.
    const spun = await spinOnce(page);
    expect(spun.balance).toBe(200_000 - 100 + spun.win);
    await expect.poll(() => page.getByTestId('house-balance').innerText(), { timeout: 30_000 }).toContain(pesos(spun.balance));
    // Back to the portal, by the page's link and by the browser's Back: the portal stays (the kept launch
    // ran again when the shell came back, and sent the player back to the game every time).
    for (const back of [() => page.getByTestId('house-back').click(), () => page.goBack()]) {
      await back();
      await page.getByTestId('home-hot-games').waitFor({ timeout: 15_000 });
      await page.waitForTimeout(1_500);
      expect(new URL(page.url()).pathname).toBe('/');
      expect(await page.getByTestId('house-page').count()).toBe(0);
      await card.hover();
      await card.getByRole('button', { name: /free trial/i }).click();
      await page.getByTestId('house-free-play').waitFor({ timeout: 15_000 });
    }
    // Lucky 9 Duel has no play money: a guest opening it by its address is asked to log in, and the
    // tab names the game as the heading does (it said "Lucky Peso games").
    await page.goto(gw.url + '/house/play?game=PVP1');
    await page.getByTestId('house-need-login').waitFor({ timeout: 15_000 });
    expect(await page.locator('.hs-title').innerText()).toBe('Lucky 9 Duel');
    await expect.poll(() => page.title()).toBe('Lucky 9 Duel | LuckyPeso');
    await context.close();
  });

  it('a player plays the house slot: the balance and the betting record change live', async () => {
    const p = await fundedPlayer(1_000);
    const { context, page } = await newPage(browser, { lang: 'EN' });
    await signInContext(context, p.token);
    await page.goto(gw.url + '/');
    const header = page.getByTestId('header-balance');
    // A signed-in first load on a loaded CI machine (two e2e files, their gateways and browsers on
    // 2 cores): a CI run saw this wait out 15 s while the page worked (it passes in ~3 s alone).
    await expect.poll(() => header.innerText(), { timeout: 30_000 }).toContain('1,000.00');
    await expect.poll(() => realtimeConnected(page), { timeout: 30_000 }).toBe(true);

    // launch as the game card would, and play in a second tab
    const launch = await call<{ url: string }>('/wps/game/launchGame', p.token, { nodeId: 'HOUSE-SLOT1' });
    const game = await context.newPage();
    await game.goto(gw.url + launch.url);
    await game.getByTestId('house-page').waitFor({ timeout: 15_000 });
    // provably fair: the server seed's hash is on screen before the first spin
    await expect.poll(() => game.getByTestId('house-seed-hash').innerText(), { timeout: 15_000 }).toMatch(/^[0-9a-f]{64}$/);
    expect(new URL(game.url()).searchParams.get('token')).toBeNull();
    // the tab names the game and the site (the page has no portal layout; it showed the address)
    await expect.poll(() => game.title()).toBe('Lucky Peso Reels | LuckyPeso');
    await game.getByTestId('house-stake-1000').click();
    const spun = await spinOnce(game);
    expect(spun.balance).toBe(100_000 - 1_000 + spun.win);
    // after a ₱10 spin the house page and the portal header agree on the new balance
    await expect.poll(() => game.getByTestId('house-balance').innerText(), { timeout: 15_000 }).toContain(pesos(spun.balance));
    // a reload of the game page keeps its game session (no token in the address or in browser storage)
    await game.reload();
    await expect.poll(() => game.getByTestId('house-balance').innerText(), { timeout: 15_000 }).toContain(pesos(spun.balance));
    expect(await game.evaluate(() => JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage }) + document.cookie)).not.toMatch(/house:session|portal_/);
    const houseBalance = (await game.getByTestId('house-balance').innerText()).replace(/[^\d.,]/g, '');
    await expect.poll(async () => (await header.innerText()).replace(/[^\d.,]/g, ''), { timeout: 15_000 }).toBe(houseBalance);
    await snap(game, 'house-slot');

    await page.goto(gw.url + '/member?tab=personalHistoryCopy');
    const rows = page.getByTestId('bets-list').locator('tbody tr');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    expect(await rows.first().innerText()).toMatch(/Lucky Peso Reels/);
    expect(await rows.first().innerText()).toContain('10.00');
    // the provider filter: the house's rounds under HOUSE, none under another provider
    const vendor = page.getByTestId('bets-vendor');
    await expect.poll(() => vendor.locator('option').count(), { timeout: 30_000 }).toBeGreaterThan(2);
    const answered = (v: string) => page.waitForResponse((r) => r.url().includes('/wps/v2/bets') && new URL(r.url()).searchParams.get('vendor') === v, { timeout: 30_000 });
    await Promise.all([answered('HOUSE'), vendor.selectOption('HOUSE')]);
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    const other = (await vendor.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).find((v) => v && v !== 'HOUSE')!;
    await Promise.all([answered(other), vendor.selectOption(other)]);
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(0);
    await page.getByTestId('bets-panel').getByText('No bets in this period').waitFor({ timeout: 30_000 });
    await vendor.selectOption('HOUSE');
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    await snap(page, 'betting-record');
    // a tab that is no item: the security centre (the default) shows, and the address drops the tab
    await page.goto(gw.url + '/member?tab=noSuchItem');
    await page.locator('[data-security-center]').waitFor({ timeout: 15_000 });
    await expect.poll(() => new URL(page.url()).search, { timeout: 15_000 }).toBe('');
    await context.close();
  });

  it('a big win shows on the home page winner board in a second browser', async () => {
    const p = await fundedPlayer(2_000);
    const viewer = await newPage(browser, { lang: 'EN' });
    await viewer.page.goto(gw.url + '/');
    await viewer.page.getByTestId('winner-row').first().waitFor();
    await expect.poll(() => realtimeConnected(viewer.page), { timeout: 30_000 }).toBe(true);

    // the player shoots sharks (30x) at ₱1 until one is caught: a win of 20x the stake or more is a big win
    const launch = await call<{ url: string }>('/wps/game/launchGame', p.token, { nodeId: 'HOUSE-FISH1' });
    const launchToken = new URL(gw.url + launch.url).searchParams.get('token')!;
    const session = await call<{ session: string }>('/house/api/session', null, { token: launchToken, game: 'FISH1' });
    let big: { win: number } | null = null;
    for (let i = 0; i < 400 && !big; i++) {
      const r = await call<{ caught: boolean; win: number; bigWin: boolean }>('/house/api/fish/shoot', null, { fish: 'shark', stake: 100 }, { headers: { 'x-house-session': session.session } });
      if (r.bigWin) big = r;
    }
    expect(big, 'a shark was caught within 400 shots (chance of not: about 2e-6)').not.toBeNull();
    const shown = viewer.page.getByTestId('winner-row').filter({ hasText: 'Lucky Fishing' }).filter({ hasText: '30.00' });
    await shown.first().waitFor({ timeout: 15_000 });
    expect(await shown.first().innerText()).toMatch(new RegExp(`^${p.account[0]}`, 'm'));
    await snap(viewer.page, 'big-win-board');
    await viewer.context.close();
  });
});
