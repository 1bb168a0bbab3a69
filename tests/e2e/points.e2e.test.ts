import { describe, expect, it } from 'vitest';
import { newPage } from './support/browser.ts';
import { realtimeConnected } from './support/portal-ui.ts';
import { chromiumSuite, gatewayCall, MEMBER_PASSWORD, memberPage, openHouseSlot, signedUpMember, spin, stepLog, tyLightPage } from './support/player-flow.ts';

/**
 * The points mall in Chromium: a player earns points by spinning the house slot (real bets through the
 * bet stream), redeems a reward on /pointMall with the transaction password, an operator approves it on
 * /ops/points, and the player's redeem history shows approved without a reload. Screenshots of /pointMall
 * in EN/dark and TY/light (/tmp/points-*.png).
 */
const suite = chromiumSuite('Ops-points-pass-1');
const call = gatewayCall(() => suite.gw);
const step = stepLog('points');

describe('points mall in Chromium', { timeout: 480_000 }, () => {
  it('a player with points redeems a reward, an operator approves it in /ops, the player sees approved', async () => {
    const { gw, browser, operator, opsToken } = suite;
    const reward = await call<{ id: string }>('/ops/api/points/rewards', opsToken, {
      title: { EN: 'Cash 2.00', TY: 'Cash na 2.00' }, remark: { EN: 'Credited to your wallet once approved.', TY: 'Ikredito sa iyong wallet kapag naaprubahan.' },
      pointsRequired: 10, amount: 2_00, quantity: 5, status: 'active',
    });
    const account = `pts${Date.now() % 100000}`;
    const token = await signedUpMember(gw, account);
    await call('/ops/api/adjustments', opsToken, { account, amount: 100_00, reason: 'e2e points', requestId: `pt-${account}` });
    await call('/wps/member/withdraw-password', token, { loginPassword: MEMBER_PASSWORD, newWithdrawPassword: 'pay12345', confirmNewWithdrawPassword: 'pay12345' });

    const { context, page } = await memberPage(browser, token, step);

    // Earn: one spin of 10.00 is 10 points at the demo ratio (1 point per 1.00).
    const game = await openHouseSlot(gw, context, token);
    await spin(game);
    await game.close();
    step('spun');

    // reached from the account menu (no page led to it)
    await page.goto(`${gw.url}/`);
    await page.getByTestId('account-menu-button').click();
    await page.getByTestId('account-menu-pointMall').click();
    await page.waitForURL(/\/pointMall$/);
    await expect.poll(() => page.getByTestId('points-balance').innerText(), { timeout: 60_000 }).toBe('10');
    await expect.poll(() => realtimeConnected(page), { timeout: 30_000 }).toBe(true);
    const card = page.getByTestId(`points-reward-${reward.id}`);
    await card.waitFor();
    await page.screenshot({ path: '/tmp/points-mall-en-dark.png', fullPage: true });
    // With 10 points, the demo's 1,000-point reward says how many more it needs and offers no redeem
    const dear = page.locator('[data-testid^="points-reward-"]').filter({ hasText: '1,000' }).first();
    expect(await dear.locator('[data-testid^="points-short-"]').innerText()).toBe('You need 990 more points');
    expect(await dear.locator('[data-testid^="points-redeem-"]').isDisabled()).toBe(true);
    await card.getByTestId(`points-redeem-${reward.id}`).click();
    const form = page.getByTestId('points-redeem-form');
    await form.locator('[data-field="withdrawPassword"] input').fill('pay12345');
    await form.getByTestId('points-redeem-submit').click();
    await page.getByTestId('points-redeem-done').waitFor();
    await page.getByTestId('points-redeem-close').click();
    await expect.poll(() => page.getByTestId('points-balance').innerText(), { timeout: 30_000 }).toBe('0');
    await page.getByTestId('points-tab-redeems').click();
    const redeems = await call<{ list: Array<{ id: string; status: string }> }>('/wps/relay/getRedeemPointList', token);
    const redeemId = redeems.list[0]!.id;
    const status = page.getByTestId(`points-redeem-status-${redeemId}`);
    await expect.poll(() => status.innerText(), { timeout: 30_000 }).toBe('Processing');
    step('redeemed');
    const walletBefore = (await call<{ balance: number }>('/wps/v2/wallets/balance', token)).balance;

    // The operator approves it in the console.
    const ops = await newPage(browser, { lang: 'EN' });
    ops.page.setDefaultTimeout(60_000);
    await operator.signIn(ops.page);
    await ops.page.getByTestId('ops-nav-points').click();
    await ops.page.getByTestId('ops-points-page').waitFor({ timeout: 60_000 });
    await ops.page.getByTestId(`ops-points-redeem-${redeemId}`).waitFor({ timeout: 60_000 }).catch(async (err: unknown) => {
      await ops.page.screenshot({ path: '/tmp/points-ops-failure.png', fullPage: true });
      throw err;
    });
    await ops.page.getByTestId(`ops-points-approve-${redeemId}`).click();
    await ops.page.getByTestId('ops-points-status-all').click();
    await expect.poll(() => ops.page.getByTestId(`ops-points-status-${redeemId}`).innerText(), { timeout: 30_000 }).toBe('Approved');
    await ops.page.screenshot({ path: '/tmp/points-ops.png', fullPage: true });
    step('approved');

    // The player sees it without a reload, and the cash arrived.
    await expect.poll(() => status.innerText(), { timeout: 30_000 }).toBe('Approved');
    expect((await call<{ balance: number }>('/wps/v2/wallets/balance', token)).balance).toBe(walletBefore + 2_00);
    // The history's status filter (all by default): processing hides the approved redeem, approved shows it, all again.
    const filter = page.getByTestId('points-redeems-filter');
    expect(await filter.inputValue()).toBe('all');
    await filter.selectOption('processing');
    await status.waitFor({ state: 'detached', timeout: 30_000 });
    await page.getByTestId('points-redeems').getByText('No redeems with this status.').waitFor({ timeout: 30_000 });
    await filter.selectOption('approved');
    await expect.poll(() => status.innerText(), { timeout: 30_000 }).toBe('Approved');
    await filter.selectOption('all');
    await expect.poll(() => status.innerText(), { timeout: 30_000 }).toBe('Approved');
    await page.screenshot({ path: '/tmp/points-redeems-en-dark.png', fullPage: true });

    // The same page in Tagalog, light theme.
    const ty = await tyLightPage(browser, token);
    await ty.page.goto(`${gw.url}/pointMall`);
    await ty.page.getByTestId(`points-reward-${reward.id}`).getByText('Cash na 2.00').waitFor({ timeout: 60_000 });
    await ty.page.getByText('Tindahan ng Puntos').first().waitFor();
    await ty.page.screenshot({ path: '/tmp/points-mall-ty-light.png', fullPage: true });
    await ty.page.getByTestId('points-tab-redeems').click();
    await expect.poll(() => ty.page.getByTestId(`points-redeem-status-${redeemId}`).innerText(), { timeout: 30_000 }).toBe('Naaprubahan');
    await ty.page.screenshot({ path: '/tmp/points-redeems-ty-light.png', fullPage: true });

    // A guest sees the catalogue and a sign-in prompt.
    const guest = await newPage(browser, { lang: 'EN' });
    await guest.page.goto(`${gw.url}/pointMall`);
    await guest.page.getByTestId('points-guest').waitFor({ timeout: 60_000 });
    await guest.page.getByTestId(`points-reward-${reward.id}`).waitFor();
    await guest.page.screenshot({ path: '/tmp/points-mall-guest.png', fullPage: true });
    for (const c of [guest.context, ty.context, ops.context, context]) await c.close();
  });
});
