import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { enrolOperatorTotp, totpNow } from '@portal/gateway/testing/ops-totp';
import { GatewayProcess } from './support/gateway-process.ts';
import { launchBrowser, newPage } from './support/browser.ts';
import { createMember } from './support/portal-ui.ts';
import { apiLogin, signInContext } from './support/session.ts';
import { DemoOperator } from './support/ops-operator.ts';

/**
 * Feedback end to end (issue 14): a player sends feedback with an image from /feedback, a support
 * operator (created by the demo administrator, its own password and authenticator) answers it in
 * /ops/feedback in another browser, and the player's open page shows the answer live, with the
 * message in the member centre. Screenshots: /tmp/feedback-player-en.png, /tmp/feedback-ops.png,
 * /tmp/feedback-answered-ty.png.
 */
let gw: GatewayProcess;
let browser: Browser;
beforeAll(async () => {
  // The demo's small catalogue: this suite needs no slot lanes, and a loaded machine boots it faster.
  gw = await GatewayProcess.start({ SEED_CATALOGUE: 'small' }, { bootTimeoutMs: 300_000 });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await gw?.stop();
});

const PASSWORD = 'login12345';
// A real 1x1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** A support-only operator, ready to sign in: one-time password changed, authenticator enrolled. */
async function supportOperator(admin: DemoOperator) {
  const adminToken = await admin.token();
  const created = await fetch(`${gw.url}/ops/api/operators`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
    body: JSON.stringify({ username: 'support01', roles: ['support'] }),
  });
  expect(created.status).toBe(200);
  const oneTime = ((await created.json()) as { value: { password: string } }).value.password;
  const first = await gw.post<{ token: string }>('/ops/api/session/login', { username: 'support01', password: oneTime });
  const password = 'Support-pass-2026';
  const changed = await fetch(`${gw.url}/ops/api/session/password`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${first.token}` },
    body: JSON.stringify({ oldPassword: oneTime, newPassword: password, confirmNewPassword: password }),
  });
  expect(changed.status).toBe(200);
  const secret = await enrolOperatorTotp(gw.url, first.token);
  return { username: 'support01', password, secret };
}

describe('feedback', () => {
  it('a player sends feedback with an image, a support operator answers in /ops, the player sees the answer live', async () => {
    await createMember(gw, { account: 'fbplayer1', password: PASSWORD });
    const admin = await DemoOperator.prepare(gw, 'Ops01-new-pass-9');
    const support = await supportOperator(admin);

    // The player, in EN.
    const p = await newPage(browser, { lang: 'EN' });
    await signInContext(p.context, await apiLogin(gw, 'fbplayer1', PASSWORD), gw.url);
    await p.page.goto(`${gw.url}/feedback`);
    await p.page.getByTestId('feedback-page').waitFor();
    await p.page.getByTestId('feedback-text').fill('The fishing game froze after my big win');
    expect(await p.page.getByTestId('feedback-counter').textContent()).toContain('39 / 140');
    await p.page.getByTestId('feedback-files').setInputFiles({ name: 'screen.png', mimeType: 'image/png', buffer: PNG });
    await p.page.getByTestId('feedback-previews').locator('img').waitFor();
    await p.page.getByTestId('feedback-submit').click();
    await p.page.getByTestId('feedback-sent').waitFor();
    const item = p.page.getByTestId('feedback-list').locator('li.fb-item').first();
    await item.getByText('The fishing game froze after my big win').waitFor();
    const id = (await item.getAttribute('data-testid'))!.replace('feedback-', '');
    // its image comes back from the server (fetched with the session token)
    await p.page.getByTestId(`feedback-image-${id}-0`).locator('img').waitFor();
    expect(await item.getAttribute('data-status')).toBe('open');
    await p.page.screenshot({ path: '/tmp/feedback-player-en.png', fullPage: true });

    // A text file named .png is refused by the server (the page lets it through by name).
    const bad = await p.page.evaluate(async () => {
      const form = new FormData();
      form.append('content', 'renamed text');
      form.append('images', new Blob(['just some text'], { type: 'image/png' }), 'fake.png');
      const keep = await (await fetch('/wps/session/keep')).json() as { value: { token: string } };
      const r = await fetch('/wps/feedback', { method: 'PUT', headers: { authorization: `Bearer ${keep.value.token}` }, body: form });
      return { status: r.status, code: ((await r.json()) as { code: string }).code };
    });
    expect(bad).toEqual({ status: 400, code: 'IMAGE_INVALID' });

    // The support operator answers in /ops.
    const o = await newPage(browser, { lang: 'EN' });
    await o.page.goto(`${gw.url}/ops`);
    await o.page.getByTestId('ops-login-username').fill(support.username);
    await o.page.getByTestId('ops-login-password').fill(support.password);
    await o.page.getByTestId('ops-login-submit').click();
    await o.page.getByTestId('ops-login-totp').fill(await totpNow(support.secret));
    await o.page.getByTestId('ops-login-submit').click();
    // Support sees the feedback section (and not, e.g., the cashier's).
    await o.page.getByTestId('ops-nav-feedback').click({ timeout: 20_000 });
    expect(await o.page.getByTestId('ops-nav-deposits').count()).toBe(0);
    await o.page.getByTestId('ops-feedback-page').waitFor();
    const row = o.page.getByTestId(`ops-feedback-row-${id}`);
    await row.waitFor();
    await row.getByText('fbplayer1').waitFor();
    await o.page.getByTestId(`ops-feedback-image-${id}-0`).locator('img').waitFor();
    await o.page.getByTestId(`ops-feedback-answer-input-${id}`).fill('Thank you! The round was settled and the win is in your balance.');
    await o.page.screenshot({ path: '/tmp/feedback-ops.png', fullPage: true });
    await o.page.getByTestId(`ops-feedback-answer-send-${id}`).click();
    await o.page.getByTestId('ops-flash').waitFor();

    // The player's open page shows the answer without a reload.
    await p.page.getByTestId(`feedback-answer-${id}`).getByText('the win is in your balance').waitFor({ timeout: 15_000 });
    expect(await item.getAttribute('data-status')).toBe('answered');
    // ... and the message is in the member centre.
    await p.page.goto(`${gw.url}/member?tab=messageV2`);
    await p.page.getByTestId('messages-list').getByText(`F${id}`).first().waitFor();
    // Filed under System and labelled so (it said "Transactions"), with the way to the answer.
    const msg = p.page.locator('[data-kind="feedback_answered"]').first();
    expect(await msg.locator('.msg-item__kind').innerText()).toBe('System');
    await msg.getByRole('link', { name: 'See the answer' }).click();
    await p.page.getByTestId(`feedback-answer-${id}`).waitFor();

    // The same in Tagalog.
    const ty = await newPage(browser, { lang: 'TY' });
    await signInContext(ty.context, await apiLogin(gw, 'fbplayer1', PASSWORD), gw.url);
    await ty.page.goto(`${gw.url}/feedback`);
    await ty.page.getByText('Ang aming sagot').waitFor();
    await ty.page.screenshot({ path: '/tmp/feedback-answered-ty.png', fullPage: true });
    for (const c of [p, o, ty]) await c.context.close();
  });
});
