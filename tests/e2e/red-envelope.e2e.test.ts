import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { GatewayProcess } from './support/gateway-process.ts';
import { launchBrowser, newPage } from './support/browser.ts';
import { createMember } from './support/portal-ui.ts';
import { apiLogin, signInContext } from './support/session.ts';
import { DemoOperator } from './support/ops-operator.ts';

/**
 * Red envelopes across two browsers: an operator drops one from /ops; a signed-in player sees it float
 * in without a reload, opens it, and the header balance rises by the share. A player who opens the
 * site after the drop finds it there too, and the grab shows in the member centre history (TY).
 * Screenshots: /tmp/envelope-ops.png, /tmp/envelope-float.png, /tmp/envelope-open.png, /tmp/envelope-history-ty.png.
 */
let gw: GatewayProcess;
let browser: Browser;
let op: DemoOperator;
beforeAll(async () => {
  // A shared machine under load can take longer than the default minute to boot.
  gw = await GatewayProcess.start({}, { bootTimeoutMs: 180_000 });
  browser = await launchBrowser();
  op = await DemoOperator.prepare(gw, 'Ops01-envelope-pass-1');
});
afterAll(async () => {
  await browser?.close();
  await gw?.stop();
});

const PASSWORD = 'login12345';
const started = Date.now();
/** Progress marks: on a loaded machine they show where the time went. */
const step = (what: string) => console.log(`red-envelope e2e: ${what} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
const pesos = (minor: number) => (minor / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

describe('red envelope', () => {
  it('an operator drops it from /ops, a player in another browser sees it live, grabs it, and the balance rises by the share', async () => {
    await createMember(gw, { account: 'rpplayer1', password: PASSWORD });
    await createMember(gw, { account: 'rpplayer2', password: PASSWORD });
    await createMember(gw, { account: 'rpplayer3', password: PASSWORD });
    const player = await newPage(browser, { lang: 'EN' });
    await signInContext(player.context, await apiLogin(gw, 'rpplayer1', PASSWORD), gw.url);
    await player.page.goto(gw.url + '/');
    const balance = player.page.getByTestId('header-balance');
    await expect.poll(() => balance.innerText(), { timeout: 150_000 }).toContain('0.00');

    step('player signed in');
    const ops = await newPage(browser, { lang: 'EN' });
    await op.signIn(ops.page);
    await ops.page.getByTestId('ops-nav-envelopes').click({ timeout: 150_000 });
    await ops.page.getByTestId('ops-envelopes-page').waitFor();
    await ops.page.getByTestId('ops-env-total').fill('100');
    await ops.page.getByTestId('ops-env-count').fill('5');
    await ops.page.getByTestId('ops-env-min').fill('1');
    await ops.page.getByTestId('ops-env-message-en').fill('Happy weekend, players!');
    await ops.page.getByTestId('ops-env-message-ty').fill('Masayang weekend, mga manlalaro!');
    await ops.page.getByTestId('ops-env-submit').click();
    await ops.page.getByTestId('ops-env-dropped').waitFor();
    const droppedId = (await ops.page.locator('[data-testid^="ops-env-row-"]').first().getAttribute('data-testid'))!.replace('ops-env-row-', '');
    await ops.page.screenshot({ path: '/tmp/envelope-ops.png', fullPage: true });

    step('dropped from /ops');
    // The player's page never reloads: the envelope arrives as an event.
    const float = player.page.getByTestId('envelope-float');
    await float.waitFor({ timeout: 150_000 });
    expect(await player.page.getByTestId('envelope-left').getAttribute('data-left')).toBe('5');
    expect(await player.page.getByTestId('envelope-left').innerText()).toBe('5 left');
    await player.page.waitForTimeout(1000);
    await player.page.screenshot({ path: '/tmp/envelope-float.png' });
    // The player may tuck it aside (it covers what is under it): a tab at the edge with the count brings it back.
    await player.page.getByTestId('envelope-tuck').click();
    await player.page.getByTestId('envelope-tab').waitFor();
    expect(await float.count()).toBe(0);
    expect(await player.page.getByTestId('envelope-tab').innerText()).toBe('1');
    await player.page.getByTestId('envelope-tab').click();
    await float.waitFor();
    // By keyboard, as ui/modal's dialogs: Tab stays in the dialog (it went on to the page's links behind,
    // where Escape no longer closed it), Escape closes it, and the focus is back on the envelope.
    await float.focus();
    await player.page.keyboard.press('Enter');
    const dialog = player.page.getByTestId('envelope-dialog');
    await dialog.waitFor();
    const focusInDialog = () => dialog.evaluate((d) => d.contains(document.activeElement));
    for (const key of ['Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
      await player.page.keyboard.press(key);
      expect(await focusInDialog(), key).toBe(true);
    }
    await player.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await float.evaluate((el) => el === document.activeElement)).toBe(true);
    await float.click();
    expect(await player.page.getByTestId('envelope-message').innerText()).toBe('Happy weekend, players!');
    // The coin's label fits inside it in both languages (Tagalog "Buksan" showed clipped as "Buksar").
    const fits = await player.page.getByTestId('envelope-grab').evaluate((el, labels) => labels.map((label) => {
      const copy = el.cloneNode() as HTMLElement;
      copy.textContent = label;
      el.parentElement!.append(copy);
      const range = document.createRange();
      range.selectNodeContents(copy);
      const cs = getComputedStyle(copy);
      const room = copy.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
      const width = range.getBoundingClientRect().width;
      copy.remove();
      return { label, fits: width <= room };
    }), ['Open', 'Buksan']);
    expect(fits).toEqual([{ label: 'Open', fits: true }, { label: 'Buksan', fits: true }]);
    // The grab goes over the page's socket (envelope:grab), not as an HTTP request.
    const httpGrabs: string[] = [];
    player.page.on('request', (r) => {
      if (/\/wps\/envelopes\/[^/]+\/grab/.test(r.url())) httpGrabs.push(r.url());
    });
    await player.page.getByTestId('envelope-grab').click();
    const amountEl = player.page.getByTestId('envelope-amount');
    await amountEl.waitFor();
    expect(httpGrabs).toEqual([]);
    const amount = Number(await amountEl.getAttribute('data-amount'));
    expect(amount).toBeGreaterThanOrEqual(100);
    expect(amount).toBeLessThanOrEqual(10_000);
    await player.page.screenshot({ path: '/tmp/envelope-open.png' });
    await expect.poll(() => balance.innerText(), { timeout: 150_000 }).toContain(pesos(amount));
    await player.page.getByTestId('envelope-done').click();
    await expect.poll(() => float.count()).toBe(0);

    step('grabbed live');
    // The operator's list shows the grab.
    await ops.page.reload();
    await expect.poll(async () => (await ops.page.locator('[data-testid^="ops-env-grabbed-"]').first().innerText()), { timeout: 150_000 }).toContain('1 / 5');

    // A player who opens the site after the drop finds it on load (TY), and sees the grab in the history.
    const late = await newPage(browser, { lang: 'TY' });
    await signInContext(late.context, await apiLogin(gw, 'rpplayer2', PASSWORD), gw.url);
    await late.page.goto(gw.url + '/');
    step('late player page opened');
    // The shares left: 4 on load; another player grabs (API) and the count drops live, without a reload.
    const lateLeft = late.page.getByTestId('envelope-left');
    await expect.poll(() => lateLeft.getAttribute('data-left'), { timeout: 150_000 }).toBe('4');
    expect(await lateLeft.innerText()).toBe('4 natitira');
    const third = await apiLogin(gw, 'rpplayer3', PASSWORD);
    const grabbed = await fetch(`${gw.url}/wps/envelopes/${droppedId}/grab`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${third}` }, body: '{}',
    });
    expect(grabbed.status).toBe(200);
    await expect.poll(() => lateLeft.getAttribute('data-left'), { timeout: 150_000 }).toBe('3');
    step('shares left updated live');
    await late.page.getByTestId('envelope-float').click({ timeout: 150_000 }).catch(async (err: unknown) => {
      await late.page.screenshot({ path: '/tmp/envelope-late-failed.png' });
      throw err;
    });
    expect(await late.page.getByTestId('envelope-message').innerText()).toBe('Masayang weekend, mga manlalaro!');
    expect(await late.page.getByTestId('envelope-dialog-left').innerText()).toBe('3 sa 5 na bahagi ang natitira');
    await late.page.getByTestId('envelope-grab').click();
    const lateAmount = Number(await late.page.getByTestId('envelope-amount').getAttribute('data-amount'));
    await late.page.getByTestId('envelope-done').click();
    await late.page.goto(gw.url + '/member?tab=redEnvelopes');
    await late.page.getByTestId('envelope-history').waitFor();
    await expect.poll(() => late.page.getByTestId(`envelope-history-${droppedId}`).innerText(), { timeout: 150_000 }).toContain(pesos(lateAmount));
    await late.page.screenshot({ path: '/tmp/envelope-history-ty.png', fullPage: true });

    // A segment from the same /ops form: the promotion picker is offered; players registered between two
    // days (yesterday to tomorrow, so today's players are in it on any merchant calendar).
    step('segment drop');
    const day = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);
    await ops.page.getByTestId('ops-env-total').fill('50');
    await ops.page.getByTestId('ops-env-count').fill('2');
    await ops.page.getByTestId('ops-env-min').fill('1');
    await ops.page.getByTestId('ops-env-audience').selectOption('promotion');
    await ops.page.getByTestId('ops-env-promotion').waitFor();
    await ops.page.getByTestId('ops-env-audience').selectOption('registered');
    await ops.page.getByTestId('ops-env-from').fill(day(-1));
    await ops.page.getByTestId('ops-env-to').fill(day(1));
    await ops.page.getByTestId('ops-env-submit').click();
    await ops.page.getByTestId('ops-env-dropped').waitFor({ timeout: 150_000 });
    const segRow = ops.page.locator('[data-testid^="ops-env-row-"]').first();
    await expect.poll(() => segRow.innerText(), { timeout: 150_000 }).toContain(`Registered ${day(-1)} to ${day(1)}`);
    const segId = (await segRow.getAttribute('data-testid'))!.replace('ops-env-row-', '');
    expect(segId).not.toBe(droppedId);
    await ops.page.screenshot({ path: '/tmp/envelope-ops-segment.png', fullPage: true });
    const open = await fetch(`${gw.url}/wps/envelopes/open`, { headers: { authorization: `Bearer ${third}` } });
    expect(((await open.json()) as { value: { list: { envelopeId: string }[] } }).value.list.map((x) => x.envelopeId)).toContain(segId);

    await player.context.close();
    await late.context.close();
    await ops.context.close();
  }, 700_000);
});
