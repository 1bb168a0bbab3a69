import { DemoOperator } from './support/ops-operator.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { GatewayProcess } from './support/gateway-process.ts';
import { launchBrowser, newPage } from './support/browser.ts';
import { createMember, realtimeConnected } from './support/portal-ui.ts';
import { apiLogin, signInContext } from './support/session.ts';

/**
 * The vendor simulator across processes: the portal (one process) launches a catalogue game of a
 * simulated vendor; the game page is served by the simulator (another process, another origin), which
 * moves the money through the portal's signed vendor API. The player sees the "Simulated demo" badge
 * on the tile, at launch and on the game page; the portal's header balance, betting record and
 * winner board (in another tab) follow live. Screenshots: /tmp/sim-*.png (EN and TY).
 */
let gw: GatewayProcess;
let browser: Browser;
let opsToken = '';

beforeAll(async () => {
  // The demo's own few hundred games (not the full 10,500): a quicker first start; every simulated type is there.
  gw = await GatewayProcess.start({ SEED_CATALOGUE: 'small' });
  browser = await launchBrowser();
  // The demo operator as a person readies it: password changed, authenticator enrolled.
  opsToken = await (await DemoOperator.prepare(gw, 'Ops-sim-pass-1')).token();
});
afterAll(async () => {
  await Promise.allSettled([browser?.close(), gw?.stop()]);
}, 60_000);

async function call<T = unknown>(path: string, token: string | null, body?: unknown, base = gw.url, headers: Record<string, string> = {}): Promise<T> {
  const r = await fetch(base + path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const j = (await r.json()) as { success: boolean; value: T; message?: string; code?: string };
  if (!j.success) throw new Error(`${path}: ${j.code} ${j.message}`);
  return j.value;
}

const pesos = (minor: number) => (minor / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const digits = (s: string) => s.replace(/[^\d.]/g, '');

async function fundedPlayer(amount: number) {
  const account = `vs${Date.now() % 1e6}`;
  await createMember(gw, { account, password: 'abc12345' });
  const token = await apiLogin(gw, account, 'abc12345');
  await call('/ops/api/adjustments', opsToken, { account, amount: amount * 100, reason: 'e2e vendor sim', requestId: `vs-${account}` });
  return { account, token };
}

/**
 * From a catalogue page (for the live casino: after choosing the provider), press "Play now" on the
 * first game with the "Simulated demo" badge: the simulator's page opens in this tab.
 */
/** The provider each launched game's card named (the betting record must name it too). */
const providerOf = new Map<string, string>();
async function launchFromCatalogue(page: Page, path: string, vendor?: string): Promise<string> {
  await page.goto(gw.url + path);
  if (vendor) await page.getByTestId(`game-centre-vendor-${vendor}`).click();
  const card = page.getByTestId('game-card').filter({ has: page.getByTestId('game-card-simulated') }).first();
  await card.waitFor({ timeout: 15_000 });
  const name = (await card.locator('.game-card__name').innerText()).trim();
  providerOf.set(name, ((await card.locator('.game-card__vendor').textContent()) ?? '').trim());
  await card.hover();
  await card.locator('.game-card__play').click();
  return opened(page, name);
}

async function opened(page: Page, name: string): Promise<string> {
  await page.waitForURL((u) => u.origin === gw.simUrl, { timeout: 15_000 });
  await page.getByTestId('sim-balance').waitFor({ timeout: 15_000 });
  expect(await page.getByTestId('sim-name').innerText()).toBe(name);
  return name;
}

/** Presses the page's action and returns the simulator's settled answer. */
async function playOnce(page: Page, testId: string): Promise<{ balance: number; round: { win: number; stake: number; roundId: string } }> {
  const [res] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/api/play') && r.request().method() === 'POST', { timeout: 15_000 }),
    page.getByTestId(testId).click(),
  ]);
  const body = (await res.json()) as { success: boolean; value: { balance: number; round: { win: number; stake: number; roundId: string } } };
  expect(body.success).toBe(true);
  return body.value;
}

describe('vendor simulator in Chromium', () => {
  it('a player plays a simulated slot and a live table from the catalogue: balance, betting record and winner board follow live', async () => {
    const p = await fundedPlayer(1_000);
    const { context, page: watch } = await newPage(browser, { lang: 'EN' });
    await signInContext(context, p.token);
    await watch.goto(gw.url + '/');
    const header = watch.getByTestId('header-balance');
    await expect.poll(() => header.innerText(), { timeout: 15_000 }).toContain('1,000.00');
    await watch.getByTestId('winner-row').first().waitFor({ timeout: 15_000 });
    await expect.poll(() => realtimeConnected(watch), { timeout: 30_000 }).toBe(true);

    // The slot: picked from the catalogue by its "Simulated demo" badge, opened on the simulator's origin.
    const game = await context.newPage();
    const slotName = await launchFromCatalogue(game, '/rng');
    expect(await game.getByTestId('sim-badge').innerText()).toMatch(/simulated demo/i);
    expect(new URL(game.url()).searchParams.get('token')).toBeNull();
    await expect.poll(() => game.getByTestId('sim-balance').innerText()).toContain('1,000.00');
    await game.getByTestId('sim-stake').selectOption('1000');
    const spun = await playOnce(game, 'sim-play');
    expect(spun.balance).toBe(100_000 - 1_000 + spun.round.win);
    await expect.poll(() => game.getByTestId('sim-balance').innerText(), { timeout: 30_000 }).toContain(pesos(spun.balance));
    await expect.poll(() => game.getByTestId('sim-history-row').count()).toBe(1);
    // A reload (the launch code is gone from the address) takes the same session up again.
    await game.reload();
    await expect.poll(() => game.getByTestId('sim-balance').innerText(), { timeout: 15_000 }).toContain(pesos(spun.balance));
    await expect.poll(() => game.getByTestId('sim-history-row').count()).toBe(1);
    // The portal's header in the other tab follows (wallet events over the socket).
    await expect.poll(async () => digits(await header.innerText()), { timeout: 15_000 }).toBe(digits(pesos(spun.balance)));
    await game.screenshot({ path: '/tmp/sim-slot-en.png', fullPage: true });

    // The live table, from the catalogue too: a bet on the player.
    const liveName = await launchFromCatalogue(game, '/live', 'MNL');
    await expect.poll(() => game.getByTestId('sim-balance').innerText(), { timeout: 30_000 }).toContain(pesos(spun.balance));
    const dealt = await playOnce(game, 'sim-side-player');
    expect(dealt.balance).toBe(spun.balance - 100 + dealt.round.win);
    await expect.poll(async () => digits(await header.innerText()), { timeout: 15_000 }).toBe(digits(pesos(dealt.balance)));
    await game.screenshot({ path: '/tmp/sim-live-en.png', fullPage: true });

    // The betting record lists both rounds under their games.
    await watch.goto(gw.url + '/member?tab=personalHistoryCopy');
    const rows = watch.getByTestId('bets-list').locator('tbody tr');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    const text = await watch.getByTestId('bets-list').innerText();
    expect(text).toContain(slotName);
    expect(text).toContain(liveName);
    // ... each with its provider: many games share a name (Ocean King, Baccarat, Tongits).
    for (const name of [slotName, liveName]) {
      const provider = rows.filter({ hasText: name }).first().getByTestId('bets-row-provider');
      expect(await provider.innerText(), name).toContain(providerOf.get(name)!);
    }

    // A big win at a simulated vendor's fish table (sharks pay 30x: a win of 20x the stake is big) reaches the winner board live.
    await watch.goto(gw.url + '/');
    await watch.getByTestId('winner-row').first().waitFor({ timeout: 15_000 });
    await expect.poll(() => realtimeConnected(watch), { timeout: 30_000 }).toBe(true);
    const fish = (await call<{ list: { nodeId: string; vassalage: string; gameName: string }[] }>('/lgw/games/game_menus?pageSize=5', null)
      .then((v) => (v as unknown as { menus: { gameType: string; games: { nodeId: string; vassalage: string; gameName: string }[] }[] }).menus))
      .find((m) => m.gameType === 'FISH')!.games.find((g) => g.vassalage !== 'HOUSE')!;
    const launch = new URL((await call<{ url: string }>('/wps/game/launchGame', p.token, { nodeId: fish.nodeId })).url);
    expect(launch.origin).toBe(gw.simUrl);
    const q = Object.fromEntries(launch.searchParams);
    const s = await call<{ session: string }>('/api/open', null, { token: q.token, game: q.game, vendor: q.vendor, operator: q.operator, type: q.type, name: q.name }, gw.simUrl);
    let big: { round: { win: number; bigWin: boolean } } | null = null;
    for (let i = 0; i < 400 && !big; i++) {
      const r = await call<{ round: { win: number; bigWin: boolean } }>('/api/play', null, { stake: 100, fish: 'shark' }, gw.simUrl, { 'x-sim-session': s.session });
      if (r.round.bigWin) big = r;
    }
    expect(big, 'a shark was caught within 400 shots (chance of not: about 2e-6)').not.toBeNull();
    const shown = watch.getByTestId('winner-row').filter({ hasText: fish.gameName }).filter({ hasText: '30.00' });
    await shown.first().waitFor({ timeout: 15_000 });
    await watch.screenshot({ path: '/tmp/sim-winner-board-en.png' });
    await context.close();
  });

  it('a lottery ticket from /lottery and a sabong fight from the main menu, in Tagalog: drawn numbers and the fight settle on the wallet', async () => {
    const p = await fundedPlayer(500);
    const { context, page } = await newPage(browser, { lang: 'TY' });
    await signInContext(context, p.token);
    await page.goto(gw.url + '/');
    await page.getByTestId('header-balance').waitFor({ timeout: 15_000 });
    // A lottery page lists its vendor's games; a card starts the game at once. /seaLottery's first is Lotto 6/45:
    // six numbers of 45 on the board (quick pick), the prize table, the draw.
    const name = await launchFromCatalogue(page, '/seaLottery');
    expect(await page.getByTestId('sim-badge').innerText()).toMatch(/simulated na demo/i);
    await page.getByTestId('sim-prizes').waitFor();
    expect(await page.getByTestId('sim-play').isDisabled()).toBe(true);
    await page.getByTestId('sim-quick-pick').click();
    expect(await page.locator('[data-testid^="sim-num-"][aria-pressed="true"]').count()).toBe(6);
    const lotto = await playOnce(page, 'sim-play');
    expect(lotto.balance).toBe(50_000 - 100 + lotto.round.win);
    await page.getByTestId('sim-drawn').waitFor();
    await expect.poll(() => page.getByTestId('sim-balance').innerText(), { timeout: 15_000 }).toContain(pesos(lotto.balance));
    await page.screenshot({ path: '/tmp/sim-lottery-ty.png', fullPage: true });
    // /lottery's first is the e-lottery Fast 3: three dice, a bet on big.
    await launchFromCatalogue(page, '/lottery');
    const ticket = await playOnce(page, 'sim-side-big');
    expect(ticket.balance).toBe(lotto.balance - 100 + ticket.round.win);
    await page.getByTestId('sim-drawn').waitFor();

    // The cockfight entry of the main menu starts its first fight directly.
    await page.goto(gw.url + '/');
    await page.locator('[data-nav="COCKFIGHT"] a').first().click();
    await page.waitForURL((u) => u.origin === gw.simUrl, { timeout: 15_000 });
    // The fixture: the two cocks and their odds. The next fight draws its pair again (10 names: the same
    // pair comes back about once in 90 fights), so the odds tell a new fight from the same one.
    const fixture = await page.getByTestId('sim-fixture').innerText();
    expect(await page.getByTestId('sim-side-home').innerText()).toMatch(/meron/i);
    expect(await page.getByTestId('sim-side-away').innerText()).toMatch(/wala/i);
    const fight = await playOnce(page, 'sim-side-home');
    expect(fight.balance).toBe(ticket.balance - 100 + fight.round.win);
    await page.getByTestId('sim-match-result').waitFor();
    // The next fight is offered at once.
    await expect.poll(() => page.getByTestId('sim-fixture').innerText()).not.toBe(fixture);
    await page.screenshot({ path: '/tmp/sim-cockfight-ty.png', fullPage: true });
    // Both rounds are in the betting record, under their games.
    await page.goto(gw.url + '/member?tab=personalHistoryCopy');
    await expect.poll(() => page.getByTestId('bets-list').locator('tbody tr').count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    expect(await page.getByTestId('bets-list').innerText()).toContain(name);
    expect((await call<{ available: number }>('/wps/v2/wallets/balance', p.token)).available).toBe(fight.balance);
    await context.close();
  });

  it('in Tagalog: the tile says "Simulasyon" on one line, the game page "Simulated na demo"; free play uses play money', async () => {
    const p = await fundedPlayer(500);
    const { context, page } = await newPage(browser, { lang: 'TY' });
    await signInContext(context, p.token);
    await page.goto(gw.url + '/');
    await page.getByTestId('header-balance').waitFor({ timeout: 15_000 });
    await page.goto(gw.url + '/rng');
    const badge = page.getByTestId('game-card-simulated').first();
    await badge.waitFor({ timeout: 15_000 });
    expect(await badge.innerText()).toMatch(/^simulasyon$/i);
    // one line: a two-line badge covered the art on a phone's two-column grid
    expect(await badge.evaluate((el) => el.getBoundingClientRect().height < 2 * parseFloat(getComputedStyle(el).lineHeight))).toBe(true);
    // The badge sits in the art's top corner, left of the heart: clear of the game name the art prints
    // near its bottom (it covered it at the bottom left) and of the favourite button.
    const boxes = await page.getByTestId('game-card').filter({ has: page.getByTestId('game-card-simulated') }).first().evaluate((el) => {
      const r = (sel: string) => el.querySelector(sel)!.getBoundingClientRect();
      const [sim, fav, media] = [r('.game-card__sim'), r('.game-card__fav'), r('.game-card__media')];
      return { simBottom: sim.bottom - media.top, simRight: sim.right, favLeft: fav.left, mediaHeight: media.height };
    });
    expect(boxes.simBottom).toBeLessThanOrEqual(boxes.mediaHeight * 0.3);
    expect(boxes.simRight).toBeLessThanOrEqual(boxes.favLeft);
    await page.screenshot({ path: '/tmp/sim-catalogue-ty.png' });
    const card = page.getByTestId('game-card').filter({ has: page.getByTestId('game-card-simulated') }).first();
    await card.hover();
    await card.locator('.game-card__trial').click();
    await page.waitForURL((u) => u.origin === gw.simUrl, { timeout: 15_000 });
    expect(new URL(page.url()).searchParams.get('lang')).toBe('ty');
    await page.getByTestId('sim-free').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('sim-badge').innerText()).toMatch(/simulated na demo/i);
    await expect.poll(() => page.getByTestId('sim-balance').innerText()).toContain('2,000.00');
    const spun = await playOnce(page, 'sim-play');
    expect(spun.balance).toBe(200_000 - 100 + spun.round.win);
    await page.screenshot({ path: '/tmp/sim-slot-ty.png', fullPage: true });
    // On a 390 px phone the reels fit the screen (five 72 px columns ran 58 px past it).
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // Play money never touches the wallet: the portal balance is as funded.
    expect((await call<{ available: number }>('/wps/v2/wallets/balance', p.token)).available).toBe(50_000);
    await context.close();
  });

  it("a guest's Free trial on a provider's game: the login popup's Free play, then Free trial opens play money", async () => {
    const { context, page } = await newPage(browser, { lang: 'EN' });
    await page.goto(gw.url + '/rng');
    const card = page.getByTestId('game-card').filter({ has: page.getByTestId('game-card-simulated') }).first();
    await card.waitFor({ timeout: 15_000 });
    await card.hover();
    await card.locator('.game-card__trial').click();
    // A guest: the login popup (spec), which offers free play
    await page.getByTestId('login-free-play').click();
    await page.waitForURL((u) => u.pathname === '/', { timeout: 15_000 });
    await page.goto(gw.url + '/rng');
    const again = page.getByTestId('game-card').filter({ has: page.getByTestId('game-card-simulated') }).first();
    await again.waitFor({ timeout: 15_000 });
    await again.hover();
    await again.locator('.game-card__trial').click();
    // The trial session's free trial is the provider's play money (it met "register first", a dead end)
    await page.waitForURL((u) => u.origin === gw.simUrl, { timeout: 15_000 });
    await page.getByTestId('sim-free').waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByTestId('sim-balance').innerText()).toContain('2,000.00');
    await context.close();
  });
});
