import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** One entry of vite's build manifest (dist/.vite/manifest.json). */
export type ManifestChunk = { file: string; src?: string; isEntry?: boolean; isDynamicEntry?: boolean; imports?: string[]; dynamicImports?: string[]; css?: string[] };
export type Manifest = Record<string, ManifestChunk>;

export function readManifest(dist: string): Manifest {
  return JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Manifest;
}

/**
 * The JS files a page fetches when it loads `keys` (manifest keys: the entry, then the lazy chunks
 * the page imports on its way to paint): each key's file and, recursively, its static imports.
 */
export function jsClosure(manifest: Manifest, keys: string[]): string[] {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const c = manifest[key];
    if (!c) throw new Error(`not in the manifest: ${key}`);
    if (c.file.endsWith('.js')) files.add(c.file);
    for (const i of c.imports ?? []) visit(i);
  };
  for (const k of keys) visit(k);
  return [...files];
}

/** Gzip size (level 9, what the build writes beside each file) of these files of `dist`. */
export function gzipBytes(dist: string, files: string[]): { raw: number; gzip: number } {
  let raw = 0;
  let gzip = 0;
  for (const f of files) {
    const buf = readFileSync(path.join(dist, f));
    raw += buf.length;
    gzip += gzipSync(buf, { level: 9 }).length;
  }
  return { raw, gzip };
}

/**
 * What a guest's first visit to the home page loads (manifest keys): the entry (index.html and its
 * static imports), the texts module and the app (imported before and after the session is
 * restored), the texts of the default language (TY) that load before the first render
 * (FIRST_NAMESPACES of client/src/i18n/i18n.ts), the home page, the popups host the shell renders
 * on every page, and the Socket.IO client the realtime connection imports once the page is up (it
 * is fetched on every visit, after the first paint: it counts).
 */
export const HOME_PAGE_CHUNKS = [
  'index.html',
  'src/i18n/i18n.ts',
  'src/app/app.tsx',
  ...['common', 'home', 'games', 'auth'].map((ns) => `src/i18n/locales/ty/${ns}.json`),
  'src/features/home/components/home-page.tsx',
  'src/app/layout/global-popups.tsx',
  '../node_modules/socket.io-client/build/esm/index.js',
];

/**
 * What the same guest visit fetches right after the first paint (manifest keys, with their static
 * imports): the home page's blocks below the first screen, the footer, the carousel library (embla
 * attaches to the painted slides) and the announcement popup's host. Not needed to paint, but
 * fetched on every visit: the bundle test bounds the whole visit too, so that moving code after
 * the paint does not hide growth.
 */
export const HOME_AFTER_PAINT_CHUNKS = [
  'src/features/home/components/home-below-fold.tsx',
  'src/app/layout/footer.tsx',
  '../node_modules/embla-carousel/esm/embla-carousel.esm.js',
  '../node_modules/embla-carousel-autoplay/esm/embla-carousel-autoplay.esm.js',
  'src/features/home/components/public-modal.tsx',
];
