import { describe, expect, it } from 'vitest';
import { newPage } from './support/browser.ts';
import { realtimeConnected } from './support/portal-ui.ts';
import { apiLogin } from './support/session.ts';
import { chromiumSuite, gatewayCall, MEMBER_PASSWORD, memberPage, openHouseSlot, signedUpMember, spin, stepLog, tyLightPage } from './support/player-flow.ts';
import { promotionCalls } from '@portal/contracts/api/promotions';

/**
 * Promotions in Chromium: an operator's first deposit bonus; a player joins it on /promotions, deposits
 * through the payment simulator, sees the bonus (kept apart from the balance) in bonus details, and its
 * wagering progress moves without a reload as they spin the house slot in another tab. Screenshots of
 * /promotions and bonus details in EN/dark and TY/light (/tmp/promo-*.png).
 */
const suite = chromiumSuite('Ops-promo-pass-1');
const call = gatewayCall(() => suite.gw);
const step = stepLog('promotions');

describe('promotions in Chromium', { timeout: 480_000 }, () => {
  it('a player joins, deposits, and watches the bonus wagering move as they play the house slot', async () => {
    const { gw, browser, opsToken } = suite;
    const promo = await call<{ id: string }>('/ops/api/promotions', opsToken, {
      category: 'newbie', kind: 'first_deposit', startsAt: new Date(Date.now() - 60_000).toISOString(),
      title: { EN: 'Welcome bonus 100%', TY: 'Bonus sa pagsalubong 100%' },
      rules: { EN: 'Join, then make your first deposit: we match it 100% up to 500.00. Wager the bonus once to withdraw it.', TY: 'Sumali, pagkatapos ay magdeposito sa unang pagkakataon: dodoblehin namin ito hanggang 500.00. Itaya ang bonus nang isang beses para ma-withdraw ito.' },
      rewardBps: 10_000, rewardCap: 500_00, wageringBonusX: 1,
    });
    await call('/ops/api/promotions', opsToken, {
      category: 'daily', kind: 'daily_signin', startsAt: new Date(Date.now() - 60_000).toISOString(), requiresJoin: false, rewardAmount: 1_00,
      title: { EN: 'Daily sign-in', TY: 'Araw-araw na pag-sign in' }, rules: { EN: 'Sign in every day for 1.00.', TY: 'Mag-sign in araw-araw para sa 1.00.' },
    });
    const account = `promo${Date.now() % 100000}`;
    const token = await signedUpMember(gw, account);
    const { context, page } = await memberPage(browser, token, step);

    await page.goto(`${gw.url}/promotions`);
    const card = page.getByTestId(`promo-card-${promo.id}`);
    await card.waitFor({ timeout: 60_000 });
    await card.getByTestId('promo-details').click();
    await card.getByTestId('promo-rules').waitFor();
    await card.getByTestId('promo-join').click();
    await expect.poll(() => card.locator('[data-promo-status]').getAttribute('data-promo-status'), { timeout: 30_000 }).toBe('signed');
    await page.screenshot({ path: '/tmp/promo-list-en-dark.png', fullPage: true });

    step('joined');
    // The deposit, paid on the simulator's page.
    try {
      await page.goto(`${gw.url}/member?tab=depositv2`);
      await page.getByTestId('deposit-channel-GCASH').click();
      await page.getByTestId('deposit-amount-field').locator('input').fill('500');
      await page.getByTestId('deposit-submit').click();
      await page.waitForURL(/\/pay\/sim\//, { timeout: 60_000 });
      step('on the simulator page');
      await page.getByRole('button', { name: 'Pay' }).click();
    } catch (err) {
      await page.screenshot({ path: '/tmp/promo-e2e-failure.png', fullPage: true });
      throw err;
    }
    // credited (the bonus is granted in the same transaction)
    await expect.poll(async () => (await call<{ balance: number }>('/wps/v2/wallets/balance', token)).balance, { timeout: 30_000 }).toBe(500_00);

    step('deposit credited');
    await page.goto(`${gw.url}/member?tab=bonusDetails`);
    await page.getByTestId('bonus-details').waitFor({ timeout: 60_000 }).catch(async (err: unknown) => {
      await page.screenshot({ path: '/tmp/promo-e2e-failure.png', fullPage: true });
      throw err;
    });
    await expect.poll(() => page.getByTestId('bonus-balance').innerText(), { timeout: 60_000 }).toContain('500.00');
    await expect.poll(() => page.getByTestId('bonus-progress').innerText(), { timeout: 30_000 }).toContain('0.00 of ₱500.00');
    await expect.poll(() => page.getByTestId('mc-badge-bonusDetails').innerText(), { timeout: 30_000 }).toBe('1');
    await expect.poll(() => realtimeConnected(page), { timeout: 30_000 }).toBe(true);
    step('bonus shown');
    const navigations: string[] = [];
    page.on('framenavigated', (f) => f === page.mainFrame() && navigations.push(f.url()));

    // Play in a second tab: two spins of 10.00 each count 20.00 towards the bonus.
    const game = await openHouseSlot(gw, context, token);
    step('game open');
    await spin(game);
    await expect.poll(() => page.getByTestId('bonus-progress').innerText(), { timeout: 60_000 }).toContain('10.00 of ₱500.00');
    await spin(game);
    await expect.poll(() => page.getByTestId('bonus-progress').innerText(), { timeout: 60_000 }).toContain('20.00 of ₱500.00');
    expect(navigations).toEqual([]);
    expect(await page.getByTestId('bonus-left').innerText()).toContain('480.00');
    await page.screenshot({ path: '/tmp/promo-bonus-en-dark.png', fullPage: true });

    step('progress moved twice');
    // The same screens in Tagalog, light theme.
    const ty = await tyLightPage(browser, token);
    await ty.page.goto(`${gw.url}/member?tab=bonusDetails`);
    await ty.page.getByText('Detalye ng bonus').first().waitFor({ timeout: 60_000 });
    await expect.poll(() => ty.page.getByTestId('bonus-progress').innerText(), { timeout: 30_000 }).toContain('Naitaya');
    await ty.page.screenshot({ path: '/tmp/promo-bonus-ty-light.png', fullPage: true });
    await ty.page.goto(`${gw.url}/promotions`);
    await ty.page.getByTestId(`promo-card-${promo.id}`).getByText('Bonus sa pagsalubong 100%').waitFor({ timeout: 60_000 });
    await ty.page.screenshot({ path: '/tmp/promo-list-ty-light.png', fullPage: true });
    await ty.context.close();
    await context.close();
  });
  it('an operator attaches a red envelope drop to a promotion in /ops (EN), cancels one before it runs, and sees another drop to the participants (TY)', async () => {
    const { gw, browser, operator, opsToken } = suite;
    const promo = await call<{ id: string }>('/ops/api/promotions', opsToken, {
      category: 'limited', kind: 'signup', startsAt: new Date(Date.now() - 60_000).toISOString(),
      title: { EN: 'Envelope party', TY: 'Salu-salo ng sobre' }, rules: { EN: 'Join for an envelope.', TY: 'Sumali para sa sobre.' },
    });
    const account = `pdrop${Date.now() % 100000}`;
    await call(promotionCalls.join.path, await signedUpMember(gw, account), { promotionId: promo.id });

    const ops = await newPage(browser, { lang: 'EN' });
    await operator.signIn(ops.page);
    await ops.page.getByTestId('ops-nav-promotions').click({ timeout: 150_000 });
    await ops.page.getByTestId(`ops-promo-${promo.id}`).getByTestId('ops-promo-drop').click({ timeout: 150_000 });
    await ops.page.getByTestId('ops-promo-drop-total').fill('10');
    await ops.page.getByTestId('ops-promo-drop-count').fill('2');
    await ops.page.getByTestId('ops-promo-drop-save').click();
    const row = ops.page.locator('tr[data-testid^="ops-promo-drop-"]', { hasText: 'Envelope party' }).filter({ has: ops.page.getByTestId('ops-promo-drop-state') }).first();
    await expect.poll(() => row.getByTestId('ops-promo-drop-state').innerText(), { timeout: 150_000 }).toBe('Scheduled');
    await ops.page.screenshot({ path: '/tmp/promo-drop-ops-en.png', fullPage: true });
    await row.getByTestId('ops-promo-drop-cancel').click();
    await expect.poll(() => row.getByTestId('ops-promo-drop-state').innerText(), { timeout: 150_000 }).toBe('Cancelled');
    expect(await row.getByTestId('ops-promo-drop-cancel').count()).toBe(0);
    step('scheduled and cancelled from /ops');

    // Another, due now: the job queue drops it to the participant.
    const due = await call<{ id: string }>(`/ops/api/promotions/${promo.id}/drops`, opsToken, {
      totalAmount: 500, count: 1, minShare: 500, expiresInMinutes: 30, runAt: new Date().toISOString(),
    });
    const ty = await newPage(browser, { lang: 'TY' });
    await operator.signIn(ty.page);
    await ty.page.getByTestId('ops-nav-promotions').click({ timeout: 150_000 });
    const dropped = ty.page.getByTestId(`ops-promo-drop-${due.id}`);
    await expect.poll(async () => {
      await ty.page.getByTestId('ops-nav-promotions').click();
      return dropped.getByTestId('ops-promo-drop-state').innerText().catch(() => '');
    }, { timeout: 150_000, interval: 2000 }).toBe('Naihulog na');
    expect(await dropped.innerText()).toMatch(/sobre #\d+/);
    expect(await ty.page.getByTestId('ops-promo-owed').innerText()).toContain('Utang na bonus');
    await ty.page.screenshot({ path: '/tmp/promo-drop-ops-ty.png', fullPage: true });
    const open = await call<{ list: Array<{ totalAmount: number }> }>('/wps/envelopes/open', await apiLogin(gw, account, MEMBER_PASSWORD));
    expect(open.list.map((e) => e.totalAmount)).toContain(500);
    // A reward request decided in the console (TY) stays in its "Napagpasyahan" (decided) tab.
    const asked = await call<{ id: string }>('/ops/api/promotions', opsToken, {
      category: 'special', kind: 'request', startsAt: new Date(Date.now() - 60_000).toISOString(), rewardAmount: 25_00,
      title: { EN: 'Tell your story', TY: 'Ikuwento mo' }, rules: { EN: 'Ask for it.', TY: 'Hilingin ito.' },
    });
    const asker = await apiLogin(gw, account, MEMBER_PASSWORD);
    await call(promotionCalls.join.path, asker, { promotionId: asked.id });
    const requested = await call<{ reward: { id: string } }>(promotionCalls.requestReward.path, asker, { promotionId: Number(asked.id), remark: 'big win' });
    expect(requested.reward.id).toBeTruthy();
    const waiting = ty.page.getByTestId(`ops-promo-request-${requested.reward.id}`);
    await expect.poll(async () => {
      await ty.page.reload();
      await ty.page.getByTestId('ops-promo-requests').waitFor({ timeout: 30_000 });
      return waiting.count();
    }, { timeout: 90_000, interval: 2000 }).toBe(1);
    await waiting.getByTestId('ops-promo-approve').click();
    await expect.poll(() => waiting.count(), { timeout: 30_000 }).toBe(0);
    await ty.page.getByTestId('ops-promo-requests-view-decided').click();
    const decidedRow = ty.page.getByTestId(`ops-promo-decided-${requested.reward.id}`);
    await decidedRow.waitFor({ timeout: 30_000 });
    expect(await decidedRow.innerText()).toMatch(/Inaprubahan[\s\S]*25\.00/);
    await ty.page.screenshot({ path: '/tmp/promo-decided-ops-ty.png', fullPage: true });
    await ops.context.close();
    await ty.context.close();
  });
});
