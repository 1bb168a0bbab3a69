import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { GatewayProcess, ROOT } from './support/gateway-process.ts';
import { launchBrowser, newPage, snap } from './support/browser.ts';

const run = promisify(execFile);
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

describe('QA replay of a recorded stream', () => {
  it('pushes the recording through the fan-out path and the page shows it', async () => {
    const { context, page } = await newPage(browser, { lang: 'EN' });
    await page.goto(gw.url + '/');
    await page.getByTestId('winner-row').first().waitFor();
    await expect.poll(() => page.evaluate(() => (window as unknown as { __portalRealtime?: { connected: boolean } }).__portalRealtime?.connected)).toBe(true);
    // the README's command, as QA would type it
    const { stderr } = await run('npm', ['run', 'replay', '--', path.join('tests/streams/home-winners.jsonl'), '--speed', '4', '--url', gw.url], { cwd: ROOT });
    expect(stderr).toContain('done: 9 events');
    const board = page.getByTestId('home-winners');
    for (const name of ['Ja***e', 'Ma***o', 'Ro***a', 'Ke***n', 'Li***y']) {
      await board.getByTestId('winner-row').filter({ hasText: name }).first().waitFor({ timeout: 30_000 });
    }
    // the newest recorded win is on top, with its amount formatted
    expect(await board.getByTestId('winner-row').first().innerText()).toContain('Li***y');
    expect(await board.innerText()).toContain('150,000.00');
    await snap(page, 'replayed-winners');
    await context.close();
  });
});
