import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './gateway-process.ts';

/** Debian's Chromium through playwright-core: never a downloaded browser. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
    ],
  });
}

/** What Chromium refused under the portal's Content-Security-Policy, on any page of any context made here. */
const cspViolations: string[] = [];

/** Record every CSP refusal Chromium reports on this page (it logs each as a console error). */
export function watchCsp(page: Page) {
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) cspViolations.push(`${page.url()}: ${m.text()}`);
  });
}

/** The violations seen since the last call (support/csp-guard.ts fails a test that left any). */
export function takeCspViolations(): string[] {
  return cspViolations.splice(0);
}

/**
 * The announcement popup (publicModal) opens once per session on any page and would cover what a
 * test clicks: pages made here start with it dismissed for the session, as a visitor who closed it
 * (also after a logout clears session storage), unless the test asks for it with `popups: true`.
 */
async function dismissAnnouncementPopups(context: BrowserContext) {
  await context.addInitScript(() => {
    const keys = ['publicModal:anonymous', 'publicModal:loggedIn'];
    const close = () => keys.forEach((k) => window.sessionStorage.setItem(k, 'closed'));
    close();
    const clear = Storage.prototype.clear;
    Storage.prototype.clear = function (this: Storage) {
      clear.call(this);
      if (this === window.sessionStorage) close();
    };
  });
}

/**
 * Pages made here ask for reduced motion (the browser setting) unless a test passes `motion: true`:
 * Chromium here draws without a GPU, and the home page's moving parts (banner autoplay, notice
 * marquee, jackpot rays, winner scroller) kept about one core busy for as long as a page showed them,
 * in every test that passes through the home page. Tests of how pages look and move (home, ux-fixes)
 * keep the motion; the portal's reduced-motion behaviour has its own test (home.e2e).
 */
type PageOpts = { locale?: string; popups?: boolean; motion?: boolean };

export async function newContext(browser: Browser, opts: PageOpts = {}): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    locale: opts.locale ?? 'en-US',
    reducedMotion: opts.motion ? 'no-preference' : 'reduce',
  });
  context.on('page', watchCsp);
  if (!opts.popups) await dismissAnnouncementPopups(context);
  return context;
}

export async function newPage(browser: Browser, opts: PageOpts & { lang?: string } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser, opts);
  if (opts.lang) {
    await context.addInitScript((lang) => window.localStorage.setItem('lang', lang), opts.lang);
  }
  const page = await context.newPage();
  return { context, page };
}

/** Screenshots for people to look at after a run: tests/artifacts/<name>.png (ignored by git). */
export async function snap(page: Page, name: string) {
  const dir = path.join(ROOT, 'tests/artifacts');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}
