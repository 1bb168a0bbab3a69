import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { GatewayProcess } from './support/gateway-process.ts';
import { launchBrowser, newContext, snap } from './support/browser.ts';
import { DemoOperator } from './support/ops-operator.ts';

/**
 * The operator's agent screens in /ops: find an agent in the tree (search, drill, breadcrumb), grant
 * a top agent its house contract, see it live in the tree and the contracts list, terminate it with
 * a reason, and find both actions in the audit trail.
 */
let gw: GatewayProcess;
let browser: Browser;
const OPS_PASSWORD = 'Ops-e2e-agents-77';
let operator: DemoOperator;

beforeAll(async () => {
  gw = await GatewayProcess.start();
  browser = await launchBrowser();
  operator = await DemoOperator.prepare(gw, OPS_PASSWORD);
});
afterAll(async () => {
  await browser?.close();
  await gw?.stop();
});

async function opsSignIn(page: Page) {
  await operator.signIn(page);
  await page.getByTestId('ops-nav-agents').waitFor({ timeout: 15_000 });
}

describe('operator agent screens', () => {
  it('search and drill the tree, grant a house contract, terminate it, see the audit', async () => {
    const stamp = Date.now() % 1e6;
    const top = `opstop${stamp}`;
    const sub = `opssub${stamp}`;
    const topId = (await gw.post<{ memberId: number }>('/wps/dev/members', { account: top, password: 'abc12345', type: 1 })).memberId;
    const subId = (await gw.post<{ memberId: number }>('/wps/dev/members', { account: sub, password: 'abc12345', type: 1, parentAccount: top })).memberId;

    const ctx = await newContext(browser);
    const page = await ctx.newPage();
    await opsSignIn(page);

    // search anywhere: the sub agent, with its path from the top
    await page.getByTestId('ops-nav-agents').click();
    await page.getByTestId('ops-agents-search').fill(`sub${stamp}`);
    await page.getByTestId('ops-agents-search-apply').click();
    await page.getByTestId(`ops-agents-row-${subId}`).waitFor({ timeout: 30_000 });
    expect(await page.getByTestId(`ops-agents-path-${subId}`).textContent()).toBe(`${top} › ${sub}`);

    // the top of the tree lists the top agent; drilling in shows the breadcrumb and its downline
    await page.getByTestId('ops-agents-top').click();
    await page.getByTestId(`ops-agents-drill-${topId}`).click();
    await page.getByTestId(`ops-agents-row-${subId}`).waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('ops-agents-crumb-current').textContent()).toBe(top);
    expect(await page.getByTestId('ops-agents-root-team').textContent()).toBe('1');

    // grant the house contract from the tree's link: daily wages at 2.5 %
    await page.getByTestId(`ops-agents-grant-${topId}`).first().click();
    await page.getByTestId('ops-grant-form').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('ops-grant-account').inputValue()).toBe(top);
    await page.getByTestId('ops-grant-kind').selectOption('dailyWages');
    await page.getByTestId('ops-grant-rate').fill('9');
    await page.getByTestId('ops-grant-submit').click();
    expect(await page.getByTestId('ops-grant-rate').getAttribute('aria-invalid')).toBe('true');
    await page.getByTestId('ops-grant-rate').fill('2.5');
    await page.getByTestId('ops-grant-submit').click();
    await page.getByTestId('ops-flash').waitFor({ timeout: 20_000 });
    await page.getByTestId('ops-contracts-filter-account').fill(top);
    await page.getByTestId('ops-contracts-filter-apply').click();
    const row = page.locator('[data-testid^="ops-contract-row-"][data-status="active"]');
    await row.first().waitFor({ timeout: 30_000 });
    expect(await row.count()).toBe(1);
    expect(await row.first().textContent()).toContain('2.5%');
    const id = Number((await row.first().getAttribute('data-testid'))!.replace('ops-contract-row-', ''));
    await snap(page, 'ops-agent-contracts');

    // the tree shows it live
    await page.getByTestId('ops-nav-agents').click();
    await page.getByTestId(`ops-live-contract-${id}`).first().waitFor({ timeout: 30_000 });

    // terminate it with a reason
    await page.getByTestId('ops-nav-agent-contracts').click();
    await page.getByTestId('ops-contracts-filter-account').fill(top);
    await page.getByTestId('ops-contracts-filter-apply').click();
    await page.getByTestId(`ops-contract-terminate-${id}`).click();
    await page.getByTestId('ops-dialog-text').fill('contract breach');
    await page.getByTestId('ops-dialog-submit').click();
    await page.locator(`[data-testid="ops-contract-row-${id}"][data-status="terminated"]`).waitFor({ timeout: 30_000 });
    // stored with its reason, shown as such (the portal's default language, TY: "Terminated by an operator")
    expect(await page.getByTestId(`ops-contract-row-${id}`).textContent()).toContain('Tinapos ng operator');

    // both actions are in the audit trail
    await page.getByTestId('ops-nav-audit').click();
    await page.getByTestId('ops-audit-filter-target-type').selectOption('agent_contract');
    const terminated = page.locator('[data-testid="ops-audit-row"][data-action="agent.contract.terminate"]').first();
    await terminated.waitFor({ timeout: 30_000 });
    expect(await terminated.textContent()).toContain('ops01');
    await page.locator('[data-testid="ops-audit-row"][data-action="agent.house_contract.grant"]').first().waitFor({ timeout: 30_000 });

    // the disputes screen loads (its list comes from the settlement module)
    await page.getByTestId('ops-nav-agent-disputes').click();
    await page.getByTestId('ops-agent-disputes-page').waitFor({ timeout: 30_000 });
    await ctx.close();
  });
});
