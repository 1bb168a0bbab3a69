import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { GatewayProcess } from './support/gateway-process.ts';
import { launchBrowser, newPage, snap } from './support/browser.ts';
import { DemoOperator } from './support/ops-operator.ts';
import { createMember } from './support/portal-ui.ts';
import { apiLogin, keptToken, signInContext } from './support/session.ts';

/**
 * The players section of the operator console in a real browser: an operator (password and
 * authenticator code) searches a player, opens the profile, adds a note and freezes the account
 * with a reason; the player's open page loses its session at once (the kept session is gone, a
 * reload shows the page signed out, the API refuses the token) and a new sign-in is refused.
 * Screenshots of the profile in EN and TY (/tmp/ops-player-EN.png, /tmp/ops-player-TY.png).
 */
let gw: GatewayProcess;
let browser: Browser;
let operator: DemoOperator;
const PASSWORD = 'login12345';

beforeAll(async () => {
  // A slow shared machine can take over a minute to boot PGlite and migrate.
  gw = await GatewayProcess.start({}, { bootTimeoutMs: 150_000 });
  browser = await launchBrowser();
  operator = await DemoOperator.prepare(gw, 'Ops-players-e2e-1');
});
afterAll(async () => {
  await browser?.close();
  await gw?.stop();
});

/** Where a slow run spent its time (a shared 2-core machine can be slow). */
const started = Date.now();
const mark = (what: string) => process.stderr.write(`[ops-players e2e] ${((Date.now() - started) / 1000).toFixed(1)} s ${what}\n`);

describe('operator console: players', () => {
  it('finds a player, opens the profile, adds a note, freezes the account; the player is refused', async () => {
    await createMember(gw, { account: 'opsfindme1', password: PASSWORD, mobileNum: '9175550199' });
    const player = await newPage(browser, { lang: 'EN' });
    const playerToken = await apiLogin(gw, 'opsfindme1', PASSWORD);
    await signInContext(player.context, playerToken, gw.url);
    await player.page.goto(`${gw.url}/`);
    await expect.poll(() => keptToken(player.page), { timeout: 15_000 }).not.toBeNull();

    mark('player signed in');
    const ops = await newPage(browser, { lang: 'EN' });
    await operator.signIn(ops.page);
    await ops.page.getByTestId('ops-nav-players').click();
    await ops.page.getByTestId('ops-players-page').waitFor({ timeout: 15_000 });
    await ops.page.getByTestId('ops-players-search').fill('findme');
    await ops.page.getByTestId('ops-players-submit').click();
    await ops.page.getByTestId('ops-player-open-opsfindme1').click();
    await ops.page.getByTestId('ops-player-page').waitFor({ timeout: 15_000 });
    await expect.poll(() => ops.page.getByTestId('ops-player-account').innerText(), { timeout: 30_000 }).toContain('9175550199');
    expect(await ops.page.getByTestId('ops-player-account').getByTestId('ops-player-status').innerText()).toMatch(/active/i);
    // the administrator sees the money panel (ledger balance) and the sign-in of the open page
    await ops.page.getByTestId('ops-player-balance').waitFor({ timeout: 30_000 });
    expect(await ops.page.getByTestId('ops-player-logins').innerText()).toMatch(/signed in/i);

    mark('profile open');
    await ops.page.getByTestId('ops-player-note-text').fill('Asked about a bonus by phone (e2e)');
    await ops.page.getByTestId('ops-player-note-add').click();
    const note = ops.page.getByTestId('ops-player-note').filter({ hasText: 'Asked about a bonus by phone (e2e)' });
    await note.waitFor({ timeout: 30_000 });
    expect(await note.innerText()).toContain('ops01');

    mark('note added');
    await ops.page.getByTestId('ops-player-freeze').click();
    await ops.page.getByTestId('ops-dialog-text').fill('Chargeback under review (e2e)');
    await ops.page.getByTestId('ops-dialog-submit').click();
    await expect.poll(() => ops.page.getByTestId('ops-player-account').getByTestId('ops-player-status').innerText(), { timeout: 30_000 }).toMatch(/frozen/i);
    await ops.page.screenshot({ path: '/tmp/ops-player-EN.png', fullPage: true });
    await snap(ops.page, 'ops-player-EN');

    mark('frozen');
    // the player's session is refused at once: no kept session, the token answers 401, a reload is signed out
    await expect.poll(() => keptToken(player.page), { timeout: 30_000 }).toBeNull();
    const info = await fetch(`${gw.url}/wps/member/info`, { headers: { authorization: `Bearer ${playerToken}` } });
    expect(info.status).toBe(401);
    await player.page.reload();
    await player.page.getByTestId('login-button').waitFor({ timeout: 15_000 });
    // and a new sign-in is refused while frozen
    await expect(apiLogin(gw, 'opsfindme1', PASSWORD)).rejects.toThrow();

    // the freeze is in the audit trail with its reason
    const token = await operator.token();
    const audit = await fetch(`${gw.url}/ops/api/audit?action=member.disable`, { headers: { authorization: `Bearer ${token}` } });
    const body = (await audit.json()) as { value: { list: Array<{ operator: string; after: { reason: string } }> } };
    expect(body.value.list[0]).toMatchObject({ operator: 'ops01', after: { reason: 'Chargeback under review (e2e)' } });

    mark('player refused');
    // the same profile in Tagalog
    const url = ops.page.url();
    const ty = await newPage(browser, { lang: 'TY' });
    await operator.signIn(ty.page);
    await ty.page.getByTestId('ops-nav-players').waitFor({ timeout: 15_000 });
    await ty.page.goto(url);
    await ty.page.getByTestId('ops-player-page').waitFor({ timeout: 15_000 });
    await ty.page.getByText('Naka-freeze').first().waitFor({ timeout: 30_000 });
    await ty.page.getByText('Mga tala ng operator').waitFor();
    await ty.page.screenshot({ path: '/tmp/ops-player-TY.png', fullPage: true });
    await snap(ty.page, 'ops-player-TY');

    // A refused adjustment: its confirm button, disabled while the call ran, dropped the focus to the
    // page; Escape then closed nothing. It closes the dialog now.
    await ty.page.goto(`${gw.url}/ops/adjustments`);
    await ty.page.getByTestId('ops-adjust-account').fill('nosuchplayer1');
    await ty.page.getByTestId('ops-adjust-amount').fill('10');
    await ty.page.getByTestId('ops-adjust-reason').fill('e2e refused adjustment');
    await ty.page.getByTestId('ops-adjust-submit').click();
    await ty.page.getByTestId('ops-dialog-submit').click();
    await ty.page.getByTestId('ops-dialog-error').waitFor({ timeout: 15_000 });
    await ty.page.keyboard.press('Escape');
    await expect.poll(() => ty.page.locator('[data-modal="opsActionModal"]').count()).toBe(0);

    await player.context.close();
    await ops.context.close();
    await ty.context.close();
  }, 300_000);

  it('a brand change saved in /ops reaches an open player page without a reload', async () => {
    const player = await newPage(browser, { lang: 'EN' });
    const was = ((await (await fetch(`${gw.url}/wps/system/whitelabel`)).json()) as { value: { brand: { siteName: string } } }).value.brand.siteName;
    await player.page.goto(`${gw.url}/`);
    // the page has read the whitelabel call: its title names the site
    await expect.poll(() => player.page.title(), { timeout: 60_000 }).toContain(was);
    // a marker that a reload would wipe
    await player.page.evaluate(() => { (window as unknown as { __noReload: boolean }).__noReload = true; });
    expect(await player.page.title()).not.toContain('Lucky Palace E2E');

    const ops = await newPage(browser, { lang: 'EN' });
    await operator.signIn(ops.page);
    await ops.page.getByTestId('ops-nav-brand').click();
    await ops.page.getByTestId('ops-brand-form').waitFor({ timeout: 15_000 });
    await ops.page.getByTestId('ops-brand-site-name').fill('Lucky Palace E2E');
    await ops.page.getByTestId('ops-brand-save').click();
    await ops.page.getByTestId('ops-brand-saved').waitFor({ timeout: 30_000 });
    await ops.page.screenshot({ path: '/tmp/ops-brand-EN.png', fullPage: true });

    // system.changed -> the page re-reads the whitelabel call (its cache entry dropped) -> the new name
    await expect.poll(() => player.page.title(), { timeout: 15_000 }).toContain('Lucky Palace E2E');
    expect(await player.page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);

    // brand colours: an unreadable one is refused with its ratio; a readable one repaints the open page
    const accent = () => player.page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--accent').trim());
    expect(await accent()).toBe('#f5c451');
    const colors = ops.page.getByTestId('ops-brand-colors-form');
    await colors.getByTestId('ops-brand-color-dark-primary').fill('#1a1a1a');
    expect(await colors.getByTestId('ops-brand-colors-save').isDisabled()).toBe(true);
    expect(await colors.innerText()).toMatch(/contrast 1\.\d\d:1, at least 4\.5:1/i);
    await colors.getByTestId('ops-brand-color-dark-primary').fill('#5aa0ff');
    await colors.getByTestId('ops-brand-colors-save').click();
    await ops.page.getByTestId('ops-brand-colors-saved').waitFor({ timeout: 30_000 });
    await expect.poll(accent, { timeout: 15_000 }).toBe('#5aa0ff');
    expect(await player.page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
    await player.page.screenshot({ path: '/tmp/brand-colors-EN.png' });
    // back to the defaults
    await colors.getByTestId('ops-brand-colors-reset').click();
    await expect.poll(accent, { timeout: 15_000 }).toBe('#f5c451');
    await player.context.close();
    await ops.context.close();
  }, 300_000);
});
