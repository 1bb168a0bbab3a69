import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOME_AFTER_PAINT_CHUNKS, HOME_PAGE_CHUNKS, gzipBytes, jsClosure, readManifest } from './support/bundle.ts';
import { ROOT } from './support/gateway-process.ts';

/**
 * Sizes of the production build (`npm run build`), read from vite's manifest: what a guest's first
 * visit to the home page fetches, and what it must not. Sizes, not timings.
 *
 * Budget: issue 12 asks for 170 KB; the build runs on Preact (client/vite.config.ts): preact/compat
 * and the router are 39 KB gzip (react + react-dom + router were 95 KB), i18next 21 KB, the Socket.IO
 * client 12 KB. The gateway serves brotli (smaller on the wire, `npm run bench -- --web`).
 * The budgets below hold what was reached so that it cannot grow back unseen; lower them as the
 * first load shrinks (README, "Performance").
 */
// First load (to the first paint, plus the Socket.IO client): 197.2 KB after the stop-18 merges
// (201,894 bytes); 185.1 KB (189,502) once embla, the blocks below the first screen, the footer and the
// notice modal left it; 129.6 KB (132,666) once the build ran on Preact instead of React (186.2 KB,
// 190,707 just before): 170 KB is met. 131.4 KB (134,527) after the 12-05 review fixes (the break
// notice's store, the merchant's dialing code first, vendor names by game type, games maintenance live;
// the break notice itself is its own chunk): the budget moved from 131 to 132 KB for them, seen.
// 133.0 KB after the 12-05 evening work (the shell +1.4 KB gzip: money by the merchant's currency
// exponent, the exclusion state every page reads, the live chat button's desk state, the header's
// profile picture); the chat room, the notice and the ops pages are chunks of their own: 132 -> 134 KB, seen.
// 134.2 KB (137,434) after the 12-06 walk-through fixes in the shell (the API client's request timeout,
// form messages by their key's namespace, customer-service names in the page language): 134 -> 135 KB, seen.
// 135.04 KB (138,283) after the 12-07 account security fixes (three error codes in the contracts' maps and
// their texts in common: passwords that must differ, a new password equal to the old, an upline that
// cannot receive): 135 -> 136 KB, seen. 136.2 KB after the next stop's fixes in the shell (the dialog's
// focus return to the main region and its Escape for questions, the page-covered mark that pauses the
// page behind a dialog, the one-a-second refusal's new text): 136 -> 137 KB, seen. 136.98 KB (140,269) after
// the 12-07 evening fixes (the live dot's connecting and offline states and the offline notice, a link's
// codes kept for the visit, the phone button's cover check loaded only on phones, three error codes):
// within 137 KB once their texts were shortened and the cover check and the codes' keeping became chunks
// of their own. 137.0 KB (140,294) after the 12-07 night's review fixes, which add nothing to the first
// load (the mobile rules left it for their own module): the 25 bytes are the chunks' hashed names in the
// shell's import map, which do not compress and change with every change anywhere (the same code built
// before and after moved by 16-25 bytes), so a 19-byte slack failed any build: 137 -> 138 KB, seen.
// Issue 12's target stays 170 KB.
const HOME_JS_BUDGET_GZIP = 138 * 1024;
// The whole visit, with what loads right after the paint (HOME_AFTER_PAINT_CHUNKS): 200.4 KB (205,243);
// 144.7 KB (148,173) on Preact (201.6 KB, 206,444 on React just before); 146.4 KB (149,922) after the 12-05
// review fixes (146 -> 147 KB, as above); 148.0 KB after the 12-05 evening work (147 -> 150 KB, as above);
// 150.1 KB (153,696) after the 12-07 fixes (the error codes above; the red envelope's one-grab-at-a-time
// guard, lib/single-flight): 150 -> 151 KB, seen. 151.2 KB after the next stop's shell fixes (as above; the
// slider check's keyboard hint): 151 -> 152 KB, seen. 152.03 KB (155,678) after the 12-07 evening fixes (as
// above): 152 -> 153 KB, seen.
const HOME_VISIT_BUDGET_GZIP = 153 * 1024;

const dist = path.join(ROOT, 'client/dist');

describe('production bundle', () => {
  if (!existsSync(path.join(dist, '.vite/manifest.json'))) throw new Error('client/dist has no manifest: run `npm run build` first');
  const manifest = readManifest(dist);
  const home = jsClosure(manifest, HOME_PAGE_CHUNKS);

  it(`home page: the JS of a first visit stays within ${HOME_JS_BUDGET_GZIP / 1024} KB gzip`, () => {
    const { raw, gzip } = gzipBytes(dist, home);
    console.log(`home page first load: ${home.length} JS files, ${(raw / 1024).toFixed(1)} KB, ${(gzip / 1024).toFixed(1)} KB gzip`);
    expect(gzip).toBeLessThanOrEqual(HOME_JS_BUDGET_GZIP);
  });

  it(`home page: with what loads right after the paint, the visit stays within ${HOME_VISIT_BUDGET_GZIP / 1024} KB gzip`, () => {
    const visit = jsClosure(manifest, [...HOME_PAGE_CHUNKS, ...HOME_AFTER_PAINT_CHUNKS]);
    const later = visit.filter((f) => !home.includes(f));
    // Each of these really is after the paint: none is in the first load.
    expect(later.length).toBeGreaterThanOrEqual(HOME_AFTER_PAINT_CHUNKS.length);
    for (const key of HOME_AFTER_PAINT_CHUNKS) expect(home, key).not.toContain(manifest[key]!.file);
    const { gzip } = gzipBytes(dist, visit);
    console.log(`home page visit with after-paint chunks: ${visit.length} JS files, ${(gzip / 1024).toFixed(1)} KB gzip`);
    expect(gzip).toBeLessThanOrEqual(HOME_VISIT_BUDGET_GZIP);
  });

  it('home page: no zod (validation loads on first use) and no other area', () => {
    for (const f of home) {
      const code = readFileSync(path.join(dist, f), 'utf8');
      expect(code, f).not.toContain('ZodError');
    }
    // Each area is a chunk of its own, fetched when opened.
    const areas = ['src/app/routes/member-route.tsx', 'src/app/routes/agent-page.tsx', 'src/app/layout/agent-layout.tsx', 'src/app/routes/game-list-center-page.tsx', 'src/app/layout/ops-layout.tsx', 'src/features/house/components/house-play-page.tsx', 'src/features/auth/components/login-popup.tsx', 'src/features/register/components/register-modal.tsx'];
    for (const key of areas) {
      const chunk = manifest[key];
      expect(chunk?.isDynamicEntry, key).toBe(true);
      expect(home, key).not.toContain(chunk!.file);
    }
    // Texts: the default language's first namespaces only, not the other language's or the back offices'.
    const locales = home.filter((f) => f.includes('/locale-'));
    expect(locales.length).toBeGreaterThan(0);
    expect(locales.every((f) => f.includes('/locale-ty-'))).toBe(true);
    expect(locales.some((f) => /locale-ty-(ops|agents|agent-office)-/.test(f))).toBe(false);
  });

  it('every compressible built file has its brotli and gzip twin', () => {
    const files = Object.values(manifest).flatMap((c) => [c.file, ...(c.css ?? [])]);
    for (const f of new Set(files)) {
      const p = path.join(dist, f);
      if (readFileSync(p).length < 1024) continue;
      expect(existsSync(p + '.br'), f).toBe(true);
      expect(existsSync(p + '.gz'), f).toBe(true);
    }
  });
});
