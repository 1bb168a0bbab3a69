import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { GatewayProcess } from './support/gateway-process.ts';
import { launchBrowser, newPage, snap } from './support/browser.ts';
import { createMember } from './support/portal-ui.ts';
import { apiLogin, signInContext } from './support/session.ts';

/**
 * What a new user hit (issue 12): house game pages opened by URL, category pages for guests,
 * untranslated codes, sign-out errors and the side bar over the game grid at 1366 px.
 */
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

async function player() {
  const account = `ux${Date.now() % 1e7}`;
  await createMember(gw, { account, password: 'abc12345' });
  return { account, token: await apiLogin(gw, account, 'abc12345') };
}

async function launchUrl(token: string, nodeId: string): Promise<string> {
  const r = await fetch(`${gw.url}/wps/game/launchGame`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ nodeId }),
  });
  return ((await r.json()) as { value: { url: string } }).value.url;
}

const title = (page: Page) => page.locator('.hs-title').innerText();

describe('issue 12 in Chromium', () => {
  it('house game pages opened by URL after a launch show their own game; back returns to each; a link leads back to the portal', async () => {
    const p = await player();
    const { context, page } = await newPage(browser, { lang: 'EN', motion: true });
    await signInContext(context, p.token);
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await page.goto(gw.url + (await launchUrl(p.token, 'HOUSE-SLOT1')));
    await expect.poll(() => title(page), { timeout: 15_000 }).toBe('Lucky Peso Reels');
    // another game by URL (bookmark): its own session, never the slot's, and no error
    await page.goto(`${gw.url}/house/play?game=BACC1`);
    await expect.poll(() => title(page), { timeout: 15_000 }).toBe('Speed Baccarat');
    await page.goto(`${gw.url}/house/play?game=FISH1`);
    await expect.poll(() => title(page), { timeout: 15_000 }).toBe('Lucky Fishing');
    expect(await page.getByTestId('house-error').count()).toBe(0);
    await page.goBack();
    await expect.poll(() => title(page), { timeout: 15_000 }).toBe('Speed Baccarat');
    await page.reload();
    await expect.poll(() => title(page), { timeout: 15_000 }).toBe('Speed Baccarat');
    expect(await page.getByTestId('house-error').count()).toBe(0);
    // a page without a session of its game starts one: no refused call on the way
    expect(errors.filter((e) => /40[13]/.test(e))).toEqual([]);
    await page.getByTestId('house-back').click();
    await page.getByTestId('home-hot-games').waitFor({ timeout: 15_000 });
    await context.close();
  });

  it('a guest opening a house game by URL plays it for free, in Tagalog with a way back', async () => {
    const { context, page } = await newPage(browser, { lang: 'TY', motion: true });
    await page.goto(`${gw.url}/house/play?game=SLOT1`);
    await page.getByTestId('house-free-play').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('house-back').innerText()).toContain('Bumalik sa portal');
    await context.close();
  });

  for (const lang of ['EN', 'TY'] as const) {
    it(`category pages list every vendor's games to a guest, no vendor codes on cards (${lang})`, async () => {
      const { context, page } = await newPage(browser, { lang, motion: true });
      await page.goto(gw.url + '/live');
      const grid = page.getByTestId('game-centre-grid');
      await expect.poll(() => grid.getByTestId('game-card').count(), { timeout: 15_000 }).toBeGreaterThan(4);
      expect(await page.getByTestId('game-centre-vendor-ALL').getAttribute('aria-selected')).toBe('true');
      // textContent: the text itself (the card shows it upper-case)
      const vendorTexts = () => grid.locator('.game-card__vendor').evaluateAll((els) => els.map((e) => e.textContent ?? ''));
      const vendors = await vendorTexts();
      expect(vendors.length).toBeGreaterThan(4);
      expect(vendors.filter((v) => /^[A-Z0-9_]+$/.test(v.trim()))).toEqual([]);
      // The tables open now (GLS2_roomList): the house baccarat with its round's phase, counting down.
      const phase = page.getByTestId('room-phase-BACC1');
      await phase.waitFor({ timeout: 15_000 });
      expect(await page.getByTestId('room-BACC1').innerText()).toContain('Speed Baccarat');
      expect(await phase.innerText()).toMatch(lang === 'TY' ? /Bukas ang taya|Susunod na round|Ibinibigay|Magbubukas/ : /Bets open|Next round|Dealing|Opening soon/);
      // one vendor
      await page.getByTestId('game-centre-vendor-MNL').click();
      await expect.poll(() => new URL(page.url()).searchParams.get('vassalage'), { timeout: 30_000 }).toBe('MNL');
      await expect.poll(async () => [...new Set(await vendorTexts())], { timeout: 15_000 }).toEqual(['Manila Live']);
      await snap(page, `ux-live-mnl-${lang}`);
      await context.close();
    });
  }

  it('the cashier in Tagalog shows payment methods by name, never a code', async () => {
    const p = await player();
    const { context, page } = await newPage(browser, { lang: 'TY', motion: true });
    await signInContext(context, p.token);
    await page.goto(gw.url + '/member?tab=depositv2');
    await page.getByTestId('deposit-channels').waitFor({ timeout: 15_000 });
    const text = await page.locator('main').innerText();
    expect(text).not.toMatch(/\b(GCASH|MAYA|INSTAPAY|BANK|TCG_SEA)\b/);
    expect(text).toContain('Paglipat sa bangko (InstaPay)');
    // Its line under the name says how, not the name again.
    expect(text).toContain('Paglilipat sa bangko gamit ang InstaPay');
    await context.close();
  });

  it('a player picks a profile picture in the member centre, in Tagalog: the header shows it, and after a reload', async () => {
    const p = await player();
    const { context, page } = await newPage(browser, { lang: 'TY' });
    await signInContext(context, p.token);
    await page.goto(gw.url + '/member');
    await page.getByTestId('profile-picture').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('profile-picture').innerText()).toContain('Larawan sa profile');
    expect(await page.getByTestId('account-avatar').count()).toBe(0);
    await page.getByTestId('profile-picture-change').click();
    await page.getByTestId('profile-picture-a05').click();
    await expect.poll(() => page.getByTestId('account-avatar').getAttribute('src'), { timeout: 15_000 }).toBe('/img/avatar/a05.svg');
    expect(await page.getByTestId('profile-picture-a05').getAttribute('aria-checked')).toBe('true');
    // The picture loads (an SVG the portal draws), and it is the member's: a reload shows it again.
    expect(await page.getByTestId('profile-picture-img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await page.reload();
    await expect.poll(() => page.getByTestId('account-avatar').getAttribute('src'), { timeout: 15_000 }).toBe('/img/avatar/a05.svg');
    await snap(page, 'profile-picture-ty');
    await context.close();
  });

  it('signing out logs no 401 (member calls in flight are cancelled)', async () => {
    const p = await player();
    const { context, page } = await newPage(browser, { lang: 'EN', motion: true });
    await signInContext(context, p.token);
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await page.goto(gw.url + '/member?tab=transactionHistory');
    await page.getByTestId('account-menu-button').waitFor({ timeout: 15_000 });
    await page.getByTestId('account-menu-button').click();
    await page.getByTestId('account-menu-logout').click();
    await page.getByTestId('logout-confirm').click();
    await page.getByTestId('login-button').waitFor({ timeout: 15_000 });
    // everything the sign-out set off has settled
    await page.waitForLoadState('networkidle');
    expect(errors.filter((e) => /401|Unauthorized/i.test(e))).toEqual([]);
    await context.close();
  });

  it('at 1366x768 the right side bar leaves the last game column uncovered', async () => {
    const { context, page } = await newPage(browser, { lang: 'EN', motion: true });
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.goto(gw.url + '/live');
    const grid = page.getByTestId('game-centre-grid');
    await expect.poll(() => grid.getByTestId('game-card').count(), { timeout: 15_000 }).toBeGreaterThan(4);
    const right = Math.max(...(await grid.getByTestId('game-card').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().right))));
    const bar = await page.locator('.side-bar').boundingBox();
    expect(bar).not.toBeNull();
    expect(right).toBeLessThanOrEqual(bar!.x);
    await snap(page, 'ux-live-1366');
    await context.close();
  });

  it('on a 390 px phone the floating customer-service bar leaves the end of every page uncovered', async () => {
    const p = await player();
    const { context, page } = await newPage(browser, { lang: 'TY', motion: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await signInContext(context, p.token);
    // The bar's top minus the bottom of the page's last line (the footer's copyright, which the bar covered),
    // scrolled to the end.
    const toEnd = () => page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const gap = () => page.evaluate(() => document.querySelector('.side-bar')!.getBoundingClientRect().top
      - document.querySelector('.site-footer__copy')!.getBoundingClientRect().bottom);
    for (const path of ['/', '/member?tab=depositv2', '/member?tab=withdraw', '/promotions', '/live']) {
      await page.goto(gw.url + path);
      await page.locator('main').first().waitFor({ timeout: 15_000 });
      await page.waitForTimeout(1_500);
      if (path === '/') {
        // Mid-page the bar tucks away while the page scrolls down, and comes back on scrolling up.
        const tucked = () => page.locator('.side-bar').evaluate((el) => el.classList.contains('side-bar--tucked'));
        await page.evaluate(() => window.scrollTo(0, 1200));
        await expect.poll(tucked).toBe(true);
        await page.evaluate(() => window.scrollTo(0, 900));
        await expect.poll(tucked).toBe(false);
        // A control under it (the withdraw page's submit button was, a tap there opened the bar): it steps
        // aside, and comes back once nothing is under it.
        await page.evaluate(() => {
          const f = document.createElement('form');
          f.id = 'qa-under';
          f.style.cssText = 'position:fixed;right:0;bottom:0;z-index:1';
          const b = document.createElement('button');
          b.type = 'submit';
          b.textContent = 'Submit';
          b.style.cssText = 'width:140px;height:90px'; // through the CSSOM: the page's CSP refuses inline style attributes
          f.appendChild(b);
          document.body.appendChild(f);
        });
        await expect.poll(tucked).toBe(true);
        await page.evaluate(() => document.getElementById('qa-under')!.remove());
        await expect.poll(tucked).toBe(false);
      }
      await toEnd();
      await page.locator('.site-footer__copy').waitFor({ state: 'attached', timeout: 30_000 });
      await page.waitForTimeout(500);
      await toEnd();
      await page.waitForTimeout(300);
      expect(await gap(), path).toBeGreaterThanOrEqual(0);
    }
    // Folded, the bar is one round button (its row of four covered a deposit channel or a form's button
    // mid-page); a tap opens the entries, choosing one folds it again.
    expect((await page.locator('.side-bar').boundingBox())!.width).toBeLessThanOrEqual(60);
    await expect.poll(() => page.getByTestId('sidebar-download').isVisible()).toBe(false);
    await page.getByTestId('side-bar-toggle').click();
    await page.getByTestId('sidebar-download').waitFor({ state: 'visible' });
    // Escape folds it, as a tap elsewhere does
    await page.keyboard.press('Escape');
    await page.getByTestId('sidebar-download').waitFor({ state: 'hidden' });
    await page.getByTestId('side-bar-toggle').click();
    await page.locator('.site-footer__copy').click(); // inert text elsewhere on the page
    await page.getByTestId('sidebar-download').waitFor({ state: 'hidden' });
    await page.getByTestId('side-bar-toggle').click();
    await page.getByTestId('sidebar-download').waitFor({ state: 'visible' });
    await snap(page, 'ux-side-bar-390-ty-open');
    await page.getByTestId('sidebar-download').click();
    await page.waitForURL(/\/down/);
    await expect.poll(() => page.getByTestId('sidebar-download').isVisible()).toBe(false);
    await snap(page, 'ux-side-bar-390-ty');
    await context.close();
  });

  it('offline, a phone in Tagalog is told so (the dot that said "reconnecting" is hidden on phones), and the notice goes when back online', async () => {
    const p = await player();
    const { context, page } = await newPage(browser, { lang: 'TY', motion: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await signInContext(context, p.token);
    await page.goto(gw.url + '/');
    await page.getByTestId('account-menu-button').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('offline-notice').count()).toBe(0);
    await context.setOffline(true);
    const notice = page.getByTestId('offline-notice');
    await notice.waitFor({ timeout: 10_000 });
    expect(await notice.innerText()).toContain('Offline ka');
    await snap(page, 'ux-offline-390-ty');
    await context.setOffline(false);
    await notice.waitFor({ state: 'detached', timeout: 10_000 });
    await context.close();
  });

  it('a phone that loses its network while the page is still fetching its parts keeps the portal, and finishes loading when back (the error page took its place for good)', async () => {
    const p = await player();
    const { context, page } = await newPage(browser, { lang: 'TY', motion: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await signInContext(context, p.token);
    // The parts fetched after the shell (the home page, the envelope host, the account slot...) arrive late, as on a slow phone.
    const shell = /\/assets\/(index|rolldown|react|boot|i18n|app|shell|locale)-/;
    await page.route('**/assets/**', async (route) => {
      if (!shell.test(route.request().url())) await new Promise((r) => setTimeout(r, 3_000));
      await route.continue().catch(() => {});
    });
    const failed: string[] = [];
    page.on('requestfailed', (r) => { if (r.url().includes('/assets/')) failed.push(r.url()); });
    await page.goto(gw.url + '/');
    await page.getByTestId('account-menu-button').waitFor({ timeout: 15_000 });
    await context.setOffline(true);
    await page.getByTestId('offline-notice').waitFor({ timeout: 10_000 });
    await page.waitForTimeout(4_000);
    expect(failed.length).toBeGreaterThan(0); // parts did fail to load
    expect(await page.locator('.system-page').count()).toBe(0);
    expect(await page.getByTestId('offline-notice').count()).toBe(1);
    await context.setOffline(false);
    await page.getByTestId('offline-notice').waitFor({ state: 'detached', timeout: 10_000 });
    // The home page's sections load once the network is back.
    await page.locator('.game-card').first().waitFor({ timeout: 20_000 });
    expect(await page.locator('.system-page').count()).toBe(0);
    // A page opened offline from the account menu (its first item was under the offline notice): once
    // back online it comes with its stylesheet (Vite asks for a chunk's CSS once: the tabs were a bulleted list).
    await context.setOffline(true);
    await page.getByTestId('offline-notice').waitFor({ timeout: 10_000 });
    await page.getByTestId('account-menu-button').click();
    await page.getByTestId('account-menu-bettingRecord').click({ timeout: 5_000 });
    await page.waitForTimeout(3_000);
    await context.setOffline(false);
    await page.locator('.mc-menu li').first().waitFor({ timeout: 30_000 });
    await expect.poll(() => page.locator('.mc-menu li').first().evaluate((e) => getComputedStyle(e).listStyleType)).toBe('none');
    expect(await page.locator('.system-page').count()).toBe(0);
    await snap(page, 'ux-offline-member-centre-390-ty');
    await context.close();
  });

  it('on a 768 px tablet in Tagalog the page fills the screen and nothing is wider than it (the main view kept 314 px empty, the header ran to 841 px)', async () => {
    const p = await player();
    const { context, page } = await newPage(browser, { lang: 'TY', motion: true });
    await page.setViewportSize({ width: 768, height: 1024 });
    await signInContext(context, p.token);
    for (const path of ['/', '/member?tab=responsibleGaming', '/member?tab=securityCenter']) {
      await page.goto(gw.url + path);
      await page.getByTestId('account-menu-button').waitFor({ timeout: 15_000 });
      await page.waitForTimeout(1_000);
      const m = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        main: document.querySelector('.main-view')!.getBoundingClientRect().width,
        padding: parseFloat(getComputedStyle(document.querySelector('.main-view')!).paddingRight),
        logo: document.querySelector('.logo')!.getBoundingClientRect().width,
      }));
      expect(m.scroll, path).toBeLessThanOrEqual(768);
      // room for the side bar, no more
      expect(m.padding, path).toBeLessThanOrEqual(78);
      expect(m.logo, path).toBeGreaterThan(60);
    }
    await snap(page, 'ux-tablet-768-ty');
    await context.close();
  });

  it('on a 390 px phone in Tagalog nothing is wider than the screen: the header (the logo at its size, signed out and in) and every member-centre item', async () => {
    const p = await player();
    const { context, page } = await newPage(browser, { lang: 'TY', motion: true });
    await page.setViewportSize({ width: 390, height: 844 });
    const logoWidth = () => page.locator('.logo__img').first().evaluate((e) => e.getBoundingClientRect().width);
    const logoLoaded = () => page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('.logo__img');
      return !!img && img.complete && img.naturalWidth > 0;
    });
    // Signed out: "Mag-log In" and "Mag-rehistro" took 10 px of the logo.
    await page.goto(gw.url + '/');
    await page.getByTestId('register-button').waitFor({ timeout: 15_000 });
    await logoLoaded();
    expect(await logoWidth()).toBeGreaterThanOrEqual(103.5);
    await signInContext(context, p.token);
    await page.goto(gw.url + '/');
    await page.getByTestId('account-menu-button').waitFor({ timeout: 15_000 });
    const box = (sel: string) => page.locator(sel).first().evaluate((e) => {
      const r = e.getBoundingClientRect();
      return { left: r.left, right: r.right };
    });
    // Measured once the header is complete: the logo image loaded and the balance shown (before, the
    // image has no size of its own yet and the actions are narrower than they end up).
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('.logo__img');
      return !!img && img.complete && img.naturalWidth > 0;
    });
    await page.getByTestId('header-balance').waitFor({ timeout: 30_000 });
    // The whole image stays left of the balance and the deposit button (it used to be 104 px wide in a 50 px link),
    // at its size: the balance, account menu and "Magdeposito" squeezed it to 34 px (the menu is now an icon, deposit a +).
    await expect.poll(async () => (await box('.site-header__actions')).left - (await box('.logo__img')).right).toBeGreaterThanOrEqual(0);
    expect(await logoWidth()).toBeGreaterThanOrEqual(103.5);
    expect(await page.getByTestId('deposit-button').getAttribute('href')).toContain('depositv2');
    expect((await page.getByTestId('deposit-button').textContent())?.trim()).toBe('Magdeposito');
    // Wider phones and small tablets too: the compact header holds up to 540 px, the full one from there.
    for (const width of [481, 541, 600]) {
      await page.setViewportSize({ width, height: 844 });
      await page.waitForTimeout(200);
      expect(await logoWidth(), `${width}`).toBeGreaterThanOrEqual(103.5);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${width}`).toBeLessThanOrEqual(width);
    }
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await snap(page, 'ux-header-390-ty');
    // Every member-centre item at that width: nothing wider than the screen (the referral link row and
    // the RG exclusion buttons, long in TY, made the page 427 and 419 px wide).
    await page.goto(gw.url + '/member');
    await page.locator('[data-testid^="mc-item-"]').first().waitFor({ timeout: 15_000 });
    const items = await page.locator('[data-testid^="mc-item-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!.replace(/^mc-item-/, '')));
    expect(items.length).toBeGreaterThan(5);
    const wide: string[] = [];
    for (const item of items) {
      await page.goto(`${gw.url}/member?tab=${item}`);
      await page.getByTestId(`mc-item-${item}`).waitFor({ timeout: 15_000 });
      await page.waitForTimeout(300);
      const w = await page.evaluate(() => document.documentElement.scrollWidth);
      if (w > 390) wide.push(`${item}: ${w}px`);
    }
    expect(wide).toEqual([]);
    await context.close();
  }, 120_000);

  it('a signed-in agent opening /agent in a new tab is told so, with the way to the agent centre, not the login form', async () => {
    const account = `uxag${Date.now() % 1e7}`;
    await createMember(gw, { account, password: 'abc12345', type: 1 });
    const token = await apiLogin(gw, account, 'abc12345');
    const { context, page } = await newPage(browser, { lang: 'EN' });
    await signInContext(context, token);
    await page.goto(gw.url + '/agent');
    await page.getByTestId('agent-centre-link').waitFor({ timeout: 15_000 });
    expect(await page.locator('.agent-landing__login form').count()).toBe(0);
    await context.close();
  });
});
