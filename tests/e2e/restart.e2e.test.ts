import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { freshDatabase } from '../../gateway/src/testing/fresh-database.ts';
import { GatewayProcess } from './support/gateway-process.ts';
import { launchBrowser, newPage } from './support/browser.ts';

/**
 * Two gateway nodes on one PostgreSQL and one Redis. The page is connected to node A; A goes down;
 * winners are committed through node B while A is down; A comes back on the same port and the page,
 * reconnecting with its last seq, shows every one of them.
 */
const DATABASE_URL = process.env.DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;
const hasServices = Boolean(DATABASE_URL && REDIS_URL);

let db: { url: string; drop(): Promise<void> } | null = null;
let a: GatewayProcess;
let b: GatewayProcess;
let browser: Browser;

describe.skipIf(!hasServices)('gateway restart (needs DATABASE_URL and REDIS_URL)', () => {
  beforeAll(async () => {
    db = await freshDatabase(DATABASE_URL!);
    const env = { DATABASE_URL: db.url, REDIS_URL: REDIS_URL!, BUS_STREAM: `portal:e2e:${Date.now()}` };
    a = await GatewayProcess.start({ ...env, NODE_ID: 'e2e-a' });
    b = await GatewayProcess.start({ ...env, NODE_ID: 'e2e-b' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.allSettled([a?.stop(), b?.stop()]);
    await db?.drop();
  });

  it('loses no event: the page reconnects and shows what was published while its node was down', async () => {
    const { context, page } = await newPage(browser, { lang: 'EN' });
    await page.goto(a.url + '/');
    await page.getByTestId('winner-row').first().waitFor();
    const connected = () => page.evaluate(() => (window as unknown as { __portalRealtime?: { connected: boolean } }).__portalRealtime?.connected);
    await expect.poll(connected).toBe(true);
    await b.post('/wps/dev/winners', { customerName: 'Be***e', gameName: 'Before Restart', iconUrl: null, winAmount: 111_11 });
    await page.getByTestId('winner-row').filter({ hasText: 'Be***e' }).first().waitFor({ timeout: 30_000 });

    await a.halt();
    await expect.poll(connected, { timeout: 15_000 }).toBe(false);
    const names = ['Do***1', 'Do***2', 'Do***3'];
    for (const n of names) await b.post('/wps/dev/winners', { customerName: n, gameName: 'While Down', iconUrl: null, winAmount: 222_22 });
    await a.boot();
    await expect.poll(connected, { timeout: 30_000 }).toBe(true);
    for (const n of names) await page.getByTestId('winner-row').filter({ hasText: n }).first().waitFor({ timeout: 15_000 });
    // newest first, none twice
    const rows = await page.getByTestId('winner-row').allInnerTexts();
    expect(rows.slice(0, 4).map((r) => /(Do\*\*\*\d|Be\*\*\*e)/.exec(r)?.[1])).toEqual(['Do***3', 'Do***2', 'Do***1', 'Be***e']);
    await context.close();
  });
});
