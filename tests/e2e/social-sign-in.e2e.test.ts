import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keptToken } from './support/session.ts';
import type { Browser } from 'playwright-core';
import { startOidcTestProvider, type OidcTestProvider } from '@portal/gateway/testing/oidc-test-provider';
import { GatewayProcess } from './support/gateway-process.ts';
import { launchBrowser, newPage, snap } from './support/browser.ts';

/**
 * Social sign-in in a real browser: the gateway as its own process, a real OpenID provider
 * (oidc-provider) in this process, Chromium typing into the provider's own login page and
 * landing back on the portal, giving the full name and birth date the Philippines require, signed in.
 */
let op: OidcTestProvider;
let gateway: GatewayProcess;
let browser: Browser;

beforeAll(async () => {
  op = await startOidcTestProvider({ providerName: 'TestID' });
  gateway = await GatewayProcess.start(op.env);
  op.register([`${gateway.url}/wps/session/oidc/callback`]);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await gateway?.stop();
  await op?.stop();
});

/** Through the provider's own login and consent pages, back on the portal at `/?from=e2e`. */
async function signInAtProvider(page: import('playwright-core').Page, login: string) {
  await page.goto(`${gateway.url}/wps/session/oidc/start?returnTo=${encodeURIComponent('/?from=e2e')}`);
  expect(new URL(page.url()).origin).toBe(op.issuer);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('whatever-the-provider-asks');
  await page.locator('button[type="submit"]').click();
  // The provider's consent page (first sign-in of this subject for this client).
  await page.waitForURL((u) => u.origin === op.issuer && u.pathname.startsWith('/interaction/'));
  await page.locator('button[type="submit"]').click();
  await page.waitForURL((u) => u.origin === gateway.url && u.pathname === '/');
}

describe('social sign-in', () => {
  it('signs a new player in through the provider and lands on the portal logged in', async () => {
    const { context, page } = await newPage(browser);
    try {
      await page.goto(`${gateway.url}/`);
      const config = await page.evaluate(async () => (await (await fetch('/wps/session/oidc/config')).json()) as { value: { enabled: boolean; providerName: string } });
      expect(config.value).toEqual({ enabled: true, providerName: 'TestID' });

      await page.goto(`${gateway.url}/wps/session/oidc/start?returnTo=${encodeURIComponent('/?from=e2e')}`);
      expect(new URL(page.url()).origin).toBe(op.issuer);
      await page.locator('input[name="login"]').fill('e2e_player');
      await page.locator('input[name="password"]').fill('whatever-the-provider-asks');
      await snap(page, 'social-sign-in-provider-login');
      await page.locator('button[type="submit"]').click();
      // The provider's consent page (first sign-in of this subject for this client).
      await page.waitForURL((u) => u.origin === op.issuer && u.pathname.startsWith('/interaction/'));
      await page.locator('button[type="submit"]').click();

      await page.waitForURL((u) => u.origin === gateway.url && u.pathname === '/');
      // The demo merchant is in the Philippines: no account and no session before the full name and
      // birth date are given (the login popup's identity step), checked like a registration.
      const popup = page.locator('[data-modal="loginPopupModal"]');
      const step = popup.getByTestId('social-identity-step');
      await step.waitFor({ timeout: 60_000 });
      expect(await keptToken(page)).toBeNull();
      // The popup shows only the identity step: no login form, no username or password, no provider button.
      expect(await popup.getByTestId('login-form').count()).toBe(0);
      expect(await popup.locator('input[name="username"], input[name="password"]').count()).toBe(0);
      expect(await popup.getByTestId('social-sign-in-button').count()).toBe(0);
      await step.getByTestId('social-identity-submit').click();
      // nothing typed: each field says what it needs, and nothing is sent
      await step.locator('[data-field="payeeName"] [role="alert"]').waitFor({ timeout: 15_000 });
      await step.locator('[data-field="birthday"] [role="alert"]').waitFor({ timeout: 15_000 });
      expect(await keptToken(page)).toBeNull();
      // The name is checked in the page with the server's rule (the merchant's real-name pattern): digits are refused before sending.
      const sent: string[] = [];
      page.on('request', (r) => { if (r.url().includes('/wps/session/oidc/identity')) sent.push(r.url()); });
      await step.locator('input[name="payeeName"]').fill('Eduardo 12');
      await step.locator('input[name="birthday"]').fill('1990-01-01');
      await step.locator('input[name="ageConfirmed"]').check();
      await step.getByTestId('social-identity-submit').click();
      await step.locator('[data-field="payeeName"] [role="alert"]').waitFor({ timeout: 15_000 });
      expect(await step.locator('[data-field="birthday"] [role="alert"]').count()).toBe(0);
      expect(sent).toEqual([]);
      await step.locator('input[name="payeeName"]').fill('Eduardo Player Santos');
      expect(await step.locator('[data-field="payeeName"] [role="alert"]').count()).toBe(0);
      await snap(page, 'social-sign-in-identity-step');
      await step.getByTestId('social-identity-submit').click();
      await expect.poll(() => keptToken(page), { timeout: 30_000 }).not.toBeNull();
      // The handoff code is gone from the address; the page it came back to keeps its own query.
      await page.waitForFunction(() => !location.search.includes('oidc='));
      expect(new URL(page.url()).searchParams.get('from')).toBe('e2e');
      await page.locator('[data-slot="account"]').waitFor();
      expect(await page.locator('[data-testid="login-button"]').count()).toBe(0);
      await snap(page, 'social-sign-in-logged-in');

      const me = await page.evaluate(async (token) => {
        const r = await fetch('/wps/member/info', { headers: { authorization: `Bearer ${token}` } });
        return (await r.json()) as { success: boolean; value?: { account: string; nickname: string; email: string } };
      }, await keptToken(page));
      expect(me).toMatchObject({ success: true, value: { account: 'e2e_player', nickname: 'E2e_player Test', email: 'e***@example.test' } });

      // The token was never in a URL: only the one-time code was, and it is spent.
      const spent = await page.evaluate(async () => {
        const r = await fetch('/wps/session/oidc/exchange', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: 'A'.repeat(43) }) });
        return r.status;
      });
      expect(spent).toBe(400);

      // A reload keeps the session in this tab.
      await page.reload();
      await page.locator('[data-slot="account"]').waitFor();
    } finally {
      await context.close();
    }
  });

  it('the identity step has a way back: "Back to login" shows the ordinary login form again, with no session', async () => {
    const { context, page } = await newPage(browser);
    try {
      await signInAtProvider(page, 'e2e_backer');
      const popup = page.locator('[data-modal="loginPopupModal"]');
      const step = popup.getByTestId('social-identity-step');
      await step.waitFor({ timeout: 60_000 });
      expect(await popup.getByTestId('login-form').count()).toBe(0);
      await step.getByTestId('social-identity-cancel').click();
      await popup.getByTestId('login-form').waitFor({ timeout: 15_000 });
      expect(await popup.getByTestId('social-identity-step').count()).toBe(0);
      await popup.getByTestId('social-sign-in-button').waitFor();
      expect(await keptToken(page)).toBeNull();
    } finally {
      await context.close();
    }
  });

  it('shows a provider failure in the login popup and cleans the address', async () => {
    const { context, page } = await newPage(browser);
    try {
      await page.goto(`${gateway.url}/?oidcError=OIDC_FAILED`);
      await page.locator('[data-modal="loginPopupModal"]').waitFor();
      await page.waitForFunction(() => !location.search.includes('oidcError'));
      expect(await keptToken(page)).toBeNull();
    } finally {
      await context.close();
    }
  });
});
