import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { GatewayProcess } from './support/gateway-process.ts';
import { launchBrowser, newPage } from './support/browser.ts';
import { createMember } from './support/portal-ui.ts';
import { apiLogin, signInContext } from './support/session.ts';
import { DemoOperator } from './support/ops-operator.ts';

/**
 * The affiliate application across two browsers: a player applies on the agent page (TY), an operator
 * approves it in /ops; the player's open page says so without a reload and opens the agent centre.
 * Screenshots: /tmp/agent-apply-form-ty.png, /tmp/agent-apply-ops.png, /tmp/agent-apply-approved-ty.png.
 */
let gw: GatewayProcess;
let browser: Browser;
let op: DemoOperator;
beforeAll(async () => {
  gw = await GatewayProcess.start({}, { bootTimeoutMs: 180_000 });
  browser = await launchBrowser();
  op = await DemoOperator.prepare(gw, 'Ops01-apply-pass-1');
});
afterAll(async () => {
  await browser?.close();
  await gw?.stop();
});

const PASSWORD = 'login12345';

describe('affiliate application', () => {
  it('a player applies on the agent page, an operator approves it in /ops, and the player opens the agent centre', async () => {
    await createMember(gw, { account: 'applyer1', password: PASSWORD });
    const player = await newPage(browser, { lang: 'TY' });
    await signInContext(player.context, await apiLogin(gw, 'applyer1', PASSWORD), gw.url);
    await player.page.goto(gw.url + '/agent');
    const form = player.page.getByTestId('agent-apply-form');
    await form.waitFor({ timeout: 150_000 });
    // Checked at the fields, in Tagalog, before anything is sent.
    await player.page.getByTestId('agent-apply-submit').click();
    expect(await form.locator('[role="alert"]').count()).toBe(3);
    expect(await form.innerText()).toContain('Ilagay ang iyong pangalan');
    await form.locator('input[name="contactName"]').fill('Maria Santos');
    await form.locator('input[name="contact"]').fill('@mariasantos');
    await player.page.getByTestId('agent-apply-channel').selectOption('community');
    await player.page.getByTestId('agent-apply-audience').fill('Isang Viber community ng 2,000 manlalaro sa Davao');
    await player.page.screenshot({ path: '/tmp/agent-apply-form-ty.png', fullPage: true });
    await player.page.getByTestId('agent-apply-submit').click();
    const status = player.page.getByTestId('agent-apply-status');
    await status.waitFor({ timeout: 60_000 });
    expect(await status.getAttribute('data-status')).toBe('pending');
    expect(await status.innerText()).toContain('Sinusuri ang iyong aplikasyon');

    const ops = await newPage(browser, { lang: 'EN' });
    await op.signIn(ops.page);
    await ops.page.goto(gw.url + '/ops/agent-applications');
    const row = ops.page.locator('[data-testid^="ops-application-row-"]').filter({ hasText: 'applyer1' });
    await row.waitFor({ timeout: 60_000 });
    expect(await row.innerText()).toContain('Maria Santos');
    await ops.page.screenshot({ path: '/tmp/agent-apply-ops.png', fullPage: true });
    await row.locator('[data-testid^="ops-application-approve-"]').click();
    await ops.page.getByTestId('ops-application-confirm').click();
    await ops.page.getByTestId('ops-application-confirm').waitFor({ state: 'detached', timeout: 60_000 });

    // The decision arrives as a message: the open page says so, and its button opens the back office.
    await expect.poll(() => status.getAttribute('data-status'), { timeout: 60_000 }).toBe('approved');
    await player.page.screenshot({ path: '/tmp/agent-apply-approved-ty.png', fullPage: true });
    await player.page.getByTestId('agent-apply-open').click();
    await player.page.waitForURL((u) => u.pathname === '/agentHome', { timeout: 60_000 });
    await player.page.getByTestId('agent-clock').waitFor({ timeout: 60_000 });
  });
});
