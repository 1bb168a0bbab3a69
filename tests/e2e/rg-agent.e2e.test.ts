import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { GatewayProcess } from './support/gateway-process.ts';
import { launchBrowser, newPage, snap } from './support/browser.ts';
import { apiLogin, signInContext } from './support/session.ts';

/**
 * Responsible gaming seen from the agent's back office (issue 13): an agent sees its two downline
 * players in downline management; one of them self-excludes; after a reload the agent's list no
 * longer shows that player, and still shows the other one. A player's row has no contracts button
 * (contracts are between agents), a downline agent's has.
 */
let gw: GatewayProcess;
let browser: Browser;
const PASSWORD = 'abc12345';

beforeAll(async () => {
  // A loaded machine boots PGlite slowly: give the gateway time.
  gw = await GatewayProcess.start({}, { bootTimeoutMs: 300_000 });
  browser = await launchBrowser();
}, 420_000);
afterAll(async () => {
  await browser?.close();
  await gw?.stop();
});

async function member(account: string, type: number, parentAccount?: string) {
  const { memberId } = await gw.post<{ memberId: number }>('/wps/dev/members', { account, password: PASSWORD, type, ...(parentAccount ? { parentAccount } : {}) });
  return { account, memberId, token: await apiLogin(gw, account, PASSWORD) };
}

async function call(path: string, token: string, body: unknown): Promise<{ status: number; success: boolean; code?: string }> {
  const r = await fetch(gw.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  const j = (await r.json()) as { success: boolean; code?: string };
  return { status: r.status, success: j.success, ...(j.code ? { code: j.code } : {}) };
}

describe("an agent's team list and responsible gaming", () => {
  it('an excluded player disappears from the agent downline list; the other player stays', async () => {
    const tag = Date.now() % 1e6;
    const agent = await member(`rgag${tag}`, 2);
    const excluded = await member(`rgpx${tag}`, 0, agent.account);
    const kept = await member(`rgpk${tag}`, 0, agent.account);
    const subAgent = await member(`rgaa${tag}`, 2, agent.account);

    const { context, page } = await newPage(browser, { lang: 'EN' });
    await signInContext(context, agent.token, gw.url);
    await page.goto(`${gw.url}/agentHome?item=downlineManagmentView`);
    const list = page.getByTestId('ao-downline-list');
    await list.waitFor({ timeout: 90_000 });
    // both players are on the agent's screen
    await page.getByTestId(`ao-downline-${excluded.account}`).waitFor({ timeout: 30_000 });
    await page.getByTestId(`ao-downline-${kept.account}`).waitFor({ timeout: 30_000 });
    const before = await list.locator('tbody').innerText();
    expect(before).toContain(excluded.account);
    expect(before).toContain(kept.account);
    // contracts are between agents: a player's row offers a transfer but no contracts, an agent's both
    await page.getByTestId(`ao-transfer-${kept.account}`).waitFor();
    expect(await page.getByTestId(`ao-contracts-${kept.account}`).count()).toBe(0);
    await page.getByTestId(`ao-contracts-${subAgent.account}`).waitFor();

    // the player self-excludes for six months from its own session
    const ex = await call('/wps/v2/rg/exclusion', excluded.token, { kind: 'self', duration: '6m' });
    expect(ex).toMatchObject({ status: 200, success: true });

    // the agent reloads its list: the excluded player is gone from the screen, the other one is still there
    await page.reload();
    await list.waitFor({ timeout: 90_000 });
    await page.getByTestId(`ao-downline-${kept.account}`).waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId(`ao-downline-${excluded.account}`).count(), { timeout: 30_000 }).toBe(0);
    const after = await list.locator('tbody').innerText();
    expect(after).not.toContain(excluded.account);
    expect(after).toContain(kept.account);
    // nor does a search of the whole team find it
    await page.getByTestId('ao-downlines-search').fill(excluded.account);
    await page.getByTestId('ao-downlines-search-go').click();
    await page.locator('.cx-empty').waitFor({ timeout: 30_000 });
    expect(await list.locator('tbody').innerText()).not.toContain(excluded.account);
    await snap(page, 'rg-agent-downlines-after-exclusion');
    await context.close();
  }, 420_000);
});
