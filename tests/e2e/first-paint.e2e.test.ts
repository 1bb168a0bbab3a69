import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { GatewayProcess } from './support/gateway-process.ts';
import { launchBrowser, newPage } from './support/browser.ts';
import { realtimeConnected } from './support/portal-ui.ts';

/**
 * First paint (issue 12): a guest's first load of the home page answers its bootstrap calls from
 * index.html's boot data and sends none of them, not even after the socket connects (its first
 * `hello` re-read every query before); the notice bar shows the seeded notice in EN and TY.
 */
let gw: GatewayProcess;
let browser: Browser;

beforeAll(async () => {
  gw = await GatewayProcess.start({}, { bootTimeoutMs: 170_000 });
  browser = await launchBrowser();
  // A gateway just started (with the vendor simulator registering its vendors) commits events for a
  // while; a guest arriving then rightly re-reads what they changed. The guest here arrives once the
  // boot data's seq has held still for 3 s (at most 60 s).
  const seqOf = async () => /"seq":\{[^}]*\}/.exec(await (await fetch(gw.url + '/')).text())?.[0] ?? '';
  let last = await seqOf();
  for (let i = 0, still = 0; i < 40 && still < 2; i++) {
    await new Promise((r) => setTimeout(r, 1500));
    const now = await seqOf();
    still = now !== '' && now === last ? still + 1 : 0;
    last = now;
  }
}, 460_000);
afterAll(async () => {
  await browser?.close();
  await gw?.stop();
});

const BOOT_CALLS = ['/wps/system/status', '/wps/system/whitelabel', '/wps/system/domainRoute', '/wps/relay/MCSFE_getListAnnouncements', '/wps/relay/GCSGAME_hotGamesV2', '/wps/relay/GCSGAME_gameVendor'];

function countApiRequests(page: Page): Map<string, number> {
  const counts = new Map<string, number>();
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (!u.pathname.startsWith('/wps/')) return;
    counts.set(u.pathname, (counts.get(u.pathname) ?? 0) + 1);
  });
  return counts;
}

describe('first paint', () => {
  for (const [lang, notice] of [['EN', 'Scheduled maintenance'], ['TY', 'Nakatakdang maintenance']] as const) {
    it(`a guest's home page in ${lang} sends none of its bootstrap calls, before or after the socket connects`, async () => {
      const { context, page } = await newPage(browser, { lang, popups: true });
      const counts = countApiRequests(page);
      await page.goto(gw.url + '/');
      await expect.poll(() => page.getByTestId('home-marquee').innerText(), { timeout: 30_000 }).toContain(notice);
      await page.getByTestId('home-hot-games').getByTestId('game-card').first().waitFor({ timeout: 30_000 });
      await expect.poll(() => realtimeConnected(page), { timeout: 30_000 }).toBe(true);
      // time for a re-read after the hello to go out, had there been one
      await page.waitForTimeout(2000);
      for (const p of BOOT_CALLS) expect(counts.get(p) ?? 0, `${p} (${JSON.stringify([...counts])})`).toBe(0);
      // the announcement popup came from the boot data too
      await page.getByTestId('public-modal').waitFor({ timeout: 30_000 });
      await context.close();
    });
  }
});
