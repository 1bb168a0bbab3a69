import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { GatewayProcess } from './support/gateway-process.ts';
import { launchBrowser, newPage } from './support/browser.ts';
import { createMember } from './support/portal-ui.ts';
import { apiLogin, keptToken, signInContext } from './support/session.ts';

/**
 * Responsible gaming in a real browser: the member centre page in EN and TY (screenshots
 * /tmp/rg-en.png, /tmp/rg-ty.png), a loss limit saved from the page, and a self-exclusion from one
 * browser that logs the player out of another at once.
 */
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
    await a.page.getByTestId('rg-set-limit').click();
    await a.page.getByTestId('rg-limit-loss-day').waitFor();
    expect(await a.page.getByTestId('rg-limit-result').textContent()).toContain('The limit applies now');
    await a.page.getByTestId('rg-events').getByText('Limit set').waitFor();
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
    await expect.poll(() => keptToken(b.page), { timeout: 10_000 }).toBeNull();
    await b.page.reload();
    await b.page.getByTestId('login-button').waitFor();
    expect(await keptToken(a.page)).toBeNull();
    await a.context.close();
    await b.context.close();
  });
});
