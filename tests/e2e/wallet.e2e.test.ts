import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { GatewayProcess } from './support/gateway-process.ts';
import { launchBrowser, newPage, snap } from './support/browser.ts';
import { createMember, realtimeConnected } from './support/portal-ui.ts';
import { apiLogin, signInContext } from './support/session.ts';

let gw: GatewayProcess;
let browser: Browser;

beforeAll(async () => {
  gw = await GatewayProcess.start();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await gw?.stop();
});

describe('wallet in Chromium', () => {
  it('deposits through the payment simulator; the header balance changes without a reload', async () => {
    const account = `dep${Date.now() % 100000}`;
    await createMember(gw, { account, password: 'abc12345' });
    const token = await apiLogin(gw, account, 'abc12345');
    const { context, page } = await newPage(browser, { lang: 'EN' });
    await signInContext(context, token);
    await page.goto(gw.url + '/');
    const balance = page.getByTestId('header-balance');
    await expect.poll(() => balance.innerText(), { timeout: 15_000 }).toContain('0.00');
    await expect.poll(() => realtimeConnected(page), { timeout: 30_000 }).toBe(true);
    // a second tab of the same player makes the deposit and pays on the simulated page
    const pay = await context.newPage();
    await pay.goto(gw.url + '/member?tab=depositv2');
    await pay.getByTestId('deposit-channel-GCASH').click();
    await pay.getByTestId('deposit-amount-field').locator('input').fill('1500');
    await pay.getByTestId('deposit-submit').click();
    await pay.waitForURL(/\/pay\/sim\//, { timeout: 15_000 });
    await pay.getByRole('button', { name: 'Pay' }).click();
    // the first tab never reloads: the balance arrives as an event
    const navigations: string[] = [];
    page.on('framenavigated', (f) => f === page.mainFrame() && navigations.push(f.url()));
    await expect.poll(() => balance.innerText(), { timeout: 20_000 }).toContain('1,500.00');
    expect(navigations).toEqual([]);
    await snap(page, 'balance-after-deposit');
    await context.close();
  });

  it('hides and shows the balance with asterisks', async () => {
    const account = `hide${Date.now() % 100000}`;
    await createMember(gw, { account, password: 'abc12345' });
    const token = await apiLogin(gw, account, 'abc12345');
    const { context, page } = await newPage(browser, { lang: 'EN' });
    await signInContext(context, token);
    await page.goto(gw.url + '/');
    await page.getByTestId('header-balance').waitFor({ timeout: 15_000 });
    await page.getByTestId('balance-toggle').click();
    await expect.poll(() => page.getByTestId('header-balance').innerText()).toMatch(/^\*+$/);
    await page.reload();
    await expect.poll(() => page.getByTestId('header-balance').innerText(), { timeout: 15_000 }).toMatch(/^\*+$/);
    await page.getByTestId('balance-toggle').click();
    await expect.poll(() => page.getByTestId('header-balance').innerText()).toContain('0.00');
    // The security centre adds an e-mail (reset links go there): the login password is asked.
    await page.goto(gw.url + '/member?tab=securityCenter');
    // The tab names the open item too.
    await expect.poll(() => page.title()).toBe('Security centre | Member Centre | LuckyPeso');
    await page.getByTestId('sec-email-edit').click();
    const email = page.getByTestId('bind-email-form');
    await email.locator('input[name="email"]').fill(`${account}@example.ph`);
    await email.locator('input[name="password"]').fill('wrong999');
    await email.getByTestId('bind-email-submit').click();
    await email.getByText('The login password is not correct').waitFor({ timeout: 15_000 });
    await email.locator('input[name="password"]').fill('abc12345');
    await email.getByTestId('bind-email-submit').click();
    await expect.poll(() => page.getByTestId('sec-email').innerText(), { timeout: 15_000 }).toBe(`${account.slice(0, 1)}***@example.ph`);
    expect(await page.getByTestId('bind-email-form').count()).toBe(0);
    // Signed in, /register and /login (a bookmark, the back button) are the home page: no form over the balance.
    for (const route of ['/register', '/login']) {
      await page.goto(gw.url + route);
      await page.waitForURL(gw.url + '/', { timeout: 15_000 });
      await page.getByTestId('header-balance').waitFor({ timeout: 15_000 });
      expect(await page.locator('[data-modal="registerModal"], [data-modal="loginPopupModal"]').count()).toBe(0);
    }
    await context.close();
  });
});
