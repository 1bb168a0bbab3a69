import { afterAll, beforeAll } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { GatewayProcess } from './gateway-process.ts';
import { launchBrowser, newPage } from './browser.ts';
import { DemoOperator } from './ops-operator.ts';
import { createMember } from './portal-ui.ts';
import { apiLogin, signInContext } from './session.ts';

/**
 * The steps the engagement suites (missions, points, promotions) and the game suites share: JSON calls
 * that must succeed, a member signed up and signed in, the player's pages (EN/dark, TY/light) and the
 * house slot played in a second tab.
 */

/** What a Chromium suite works against, filled in by the beforeAll of chromiumSuite. */
export type ChromiumSuite = { gw: GatewayProcess; browser: Browser; operator: DemoOperator; opsToken: string };

/**
 * Registers the suite's hooks: before all, a gateway (vendor simulator off; a shared machine under load
 * can take minutes to boot the embedded database), Chromium and the demo operator (`operatorPassword`)
 * signed in; after all, both closed. The object returned is filled in by the beforeAll.
 */
export function chromiumSuite(operatorPassword: string): ChromiumSuite {
  const suite = {} as ChromiumSuite;
  beforeAll(async () => {
    suite.gw = await GatewayProcess.start({ VENDOR_SIM: 'off' }, { bootTimeoutMs: 300_000 });
    suite.browser = await launchBrowser();
    suite.operator = await DemoOperator.prepare(suite.gw, operatorPassword);
    suite.opsToken = await suite.operator.token();
  }, 400_000);
  afterAll(async () => {
    await suite.browser?.close();
    await suite.gw?.stop();
  });
  return suite;
}

/** The password of the members made by signedUpMember. */
export const MEMBER_PASSWORD = 'abc12345';

/**
 * A JSON call to the gateway (`gw()`, read at each call: it starts in a beforeAll) that must succeed:
 * GET without a body, POST with one (or `init.method`), `init.headers` added. Its value; a failure
 * throws `<path>: <code> <message>`.
 */
export function gatewayCall(gw: () => GatewayProcess) {
  return async function call<T = unknown>(path: string, token: string | null, body?: unknown, init: { method?: string; headers?: Record<string, string> } = {}): Promise<T> {
    const r = await fetch(gw().url + path, {
      method: init.method ?? (body === undefined ? 'GET' : 'POST'),
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...init.headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const j = (await r.json()) as { success: boolean; value: T; message?: string; code?: string };
    if (!j.success) throw new Error(`${path}: ${j.code} ${j.message}`);
    return j.value;
  };
}

/** A timestamped progress line of a suite (`[<suite> e2e] <time> <what>`). */
export const stepLog = (suite: string) => (what: string) => console.log(`[${suite} e2e] ${new Date().toISOString()} ${what}`);

/** A new member (MEMBER_PASSWORD) signed in through the API: its session token. */
export async function signedUpMember(gw: GatewayProcess, account: string): Promise<string> {
  await createMember(gw, { account, password: MEMBER_PASSWORD });
  return apiLogin(gw, account, MEMBER_PASSWORD);
}

/** The member's page in EN (dark, the default), signed in; steps time out after 60 s and page errors are logged with `step`. */
export async function memberPage(browser: Browser, token: string, step: (what: string) => void): Promise<{ context: BrowserContext; page: Page }> {
  const { context, page } = await newPage(browser, { lang: 'EN' });
  // A stuck step fails with its own message instead of the test's timeout.
  page.setDefaultTimeout(60_000);
  page.on('pageerror', (e) => step(`page error: ${e.message}`));
  await signInContext(context, token);
  return { context, page };
}

/** The member's page in Tagalog with the light theme, signed in (for the TY/light screenshots). */
export async function tyLightPage(browser: Browser, token: string): Promise<{ context: BrowserContext; page: Page }> {
  const ty = await newPage(browser, { lang: 'TY' });
  await ty.context.addInitScript(() => localStorage.setItem('theme', 'light'));
  await signInContext(ty.context, token);
  return ty;
}

/** The house slot launched for the member in a new tab of `context`, open with the 10.00 stake chosen. */
export async function openHouseSlot(gw: GatewayProcess, context: BrowserContext, token: string): Promise<Page> {
  const launch = await gatewayCall(() => gw)<{ url: string }>('/wps/game/launchGame', token, { nodeId: 'HOUSE-SLOT1' });
  const game = await context.newPage();
  await game.goto(gw.url + launch.url);
  await game.getByTestId('house-page').waitFor({ timeout: 60_000 });
  await game.getByTestId('house-stake-1000').click();
  return game;
}

/** One spin of the house slot on its page; returns when the spin's response has come. */
export async function spin(page: Page) {
  await Promise.all([
    page.waitForResponse((r) => r.url().includes('/slot/spin') && r.request().method() === 'POST', { timeout: 60_000 }),
    page.getByTestId('house-spin').click(),
  ]);
}
