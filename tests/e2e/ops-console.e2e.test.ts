import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { GatewayProcess } from './support/gateway-process.ts';
import { launchBrowser, newPage, snap } from './support/browser.ts';
import { DemoOperator } from './support/ops-operator.ts';

/**
 * The operator console's site settings, live: an operator (password + authenticator code) switches
 * maintenance on in /ops, and a player's already open page shows the maintenance page without a
 * reload; then off again, and the home page comes back in the same page. Screenshots of the console
 * in EN and TY.
 */
let gw: GatewayProcess;
let browser: Browser;
let operator: DemoOperator;

beforeAll(async () => {
  gw = await GatewayProcess.start();
  browser = await launchBrowser();
  operator = await DemoOperator.prepare(gw, 'Ops-console-e2e-1');
});
afterAll(async () => {
  await browser?.close();
  await gw?.stop();
});

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `/tmp/ops-${name}.png`, fullPage: true });
  await snap(page, `ops-${name}`);
}

describe('operator console', () => {
  it('maintenance switched on in /ops reaches an open player page without a reload, then off again', async () => {
    const player = await newPage(browser, { lang: 'EN' });
    await player.page.goto(gw.url + '/');
    await player.page.getByTestId('home-banners').first().waitFor({ state: 'visible', timeout: 20_000 });
    // a marker that a reload would wipe
    await player.page.evaluate(() => { (window as unknown as { __noReload: boolean }).__noReload = true; });

    const ops = await newPage(browser, { lang: 'EN' });
    await operator.signIn(ops.page);
    await ops.page.getByTestId('ops-nav-site').click();
    await ops.page.getByTestId('ops-site-page').waitFor({ timeout: 15_000 });
    expect(await ops.page.getByTestId('ops-site-maintenance-state').innerText()).toMatch(/open/i);
    await ops.page.getByTestId('ops-site-maintenance-message').fill('Back at 05:00 (e2e)');
    await ops.page.getByTestId('ops-site-maintenance-toggle').click();
    await expect.poll(() => ops.page.getByTestId('ops-site-maintenance-state').innerText(), { timeout: 30_000 }).toMatch(/maintenance/i);

    const maint = player.page.locator('[data-page="maintenance"]');
    await maint.waitFor({ timeout: 15_000 });
    expect(await maint.innerText()).toContain('Back at 05:00 (e2e)');
    expect(await player.page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
    await shot(ops.page, 'site-EN');
    await snap(player.page, 'ops-console-player-maintenance');

    await ops.page.getByTestId('ops-site-maintenance-toggle').click();
    await player.page.getByTestId('home-banners').first().waitFor({ state: 'visible', timeout: 15_000 });
    expect(await player.page.locator('[data-page="maintenance"]').count()).toBe(0);
    expect(await player.page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);

    // both changes are in the audit trail, with their operator
    await ops.page.getByTestId('ops-nav-audit').click();
    await ops.page.getByTestId('ops-audit-filter-action').selectOption('site.update');
    await expect.poll(() => ops.page.locator('[data-testid="ops-audit-row"][data-action="site.update"]').count(), { timeout: 30_000 }).toBe(2);
    await shot(ops.page, 'audit-EN');
    await ops.page.getByTestId('ops-nav-operators').click();
    await ops.page.getByTestId('ops-operator-row-ops01').waitFor({ timeout: 30_000 });
    await shot(ops.page, 'operators-EN');
    await ops.page.getByTestId('ops-nav-games').click();
    await ops.page.getByTestId('ops-games-page').locator('[data-testid^="ops-game-"]').first().waitFor({ timeout: 15_000 });
    await shot(ops.page, 'games-EN');
    // an address with no console page says so (it opened the first section under the wrong address)
    await ops.page.goto(gw.url + '/ops/account');
    const notFound = ops.page.getByTestId('ops-not-found');
    await notFound.waitFor({ timeout: 15_000 });
    expect(await notFound.innerText()).toContain('/ops/account');
    await ops.page.getByTestId('ops-not-found-back').click();
    await expect.poll(() => new URL(ops.page.url()).pathname).not.toBe('/ops/account');
    await player.context.close();
    await ops.context.close();
  });

  it('asks the authenticator code at sign-in and reads in TY', async () => {
    const ops = await newPage(browser, { lang: 'TY' });
    await ops.page.goto(gw.url + '/ops');
    await ops.page.getByTestId('ops-login-username').fill('ops01');
    await ops.page.getByTestId('ops-login-password').fill(operator.password);
    await ops.page.getByTestId('ops-login-submit').click();
    // the password alone is not enough: the console asks for the code
    await ops.page.getByTestId('ops-login-totp').waitFor({ timeout: 30_000 });
    await shot(ops.page, 'login-totp-TY');
    await ops.page.getByTestId('ops-login-totp').fill(await operator.code());
    await ops.page.getByTestId('ops-login-submit').click();
    await ops.page.getByTestId('ops-nav-site').click();
    await ops.page.getByTestId('ops-site-page').waitFor({ timeout: 15_000 });
    expect(await ops.page.getByTestId('ops-site-maintenance').innerText()).toContain('Bukas ang site');
    await shot(ops.page, 'site-TY');
    await ops.page.getByTestId('ops-nav-operators').click();
    await ops.page.getByTestId('ops-operator-row-ops01').waitFor({ timeout: 30_000 });
    await shot(ops.page, 'operators-TY');
    await ops.page.getByTestId('ops-nav-games').click();
    await ops.page.getByTestId('ops-games-page').locator('[data-testid^="ops-game-"]').first().waitFor({ timeout: 15_000 });
    await shot(ops.page, 'games-TY');
    await ops.context.close();
  });
});
