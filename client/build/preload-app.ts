import type { OutputBundle, OutputChunk } from 'rolldown';
import type { Plugin } from 'vite';

/**
 * Adds `<link rel="modulepreload">` to index.html for the chunks every page needs after the entry:
 * the app module (src/app/app.tsx, imported by main.tsx only after the session is restored) and
 * its static imports. The browser fetches and compiles them while the session call is in flight,
 * instead of starting after it. Same-origin files: the CSP (script-src 'self') allows them.
 */
export function preloadApp(facades: string[]): Plugin {
  return {
    name: 'portal:preload-app',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const bundle = ctx.bundle as OutputBundle | undefined;
        if (!bundle) return [];
        const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === 'chunk');
        const seen = new Set<string>();
        const closure = (c: OutputChunk | undefined, out: string[]) => {
          if (!c || seen.has(c.fileName)) return;
          seen.add(c.fileName);
          out.push(c.fileName);
          for (const f of c.imports) closure(bundle[f] as OutputChunk | undefined, out);
        };
        // What the entry's own script tag and preloads already fetch.
        for (const c of chunks.filter((x) => x.isEntry)) closure(c, []);
        const files: string[] = [];
        const visit = (c: OutputChunk | undefined) => closure(c, files);
        for (const facade of facades) visit(chunks.find((c) => c.facadeModuleId?.replaceAll('\\', '/').endsWith(facade)));
        return files.map((f) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${f}` }, injectTo: 'head' as const }));
      },
    },
  };
}

/**
 * What one page path needs beside the app, for `theme-boot.js` to preload before any module runs
 * (issue 12): a JSON element in index.html (not an inline script: the CSP forbids those) with the home
 * page's chunks (and their imports not already preloaded) and, per language, the chunks of the texts
 * every page loads first. theme-boot.js adds `<link rel="modulepreload">` for the home chunks on the
 * home paths and for the texts of the stored language (or the default one), so they are fetched beside
 * the boot chunks instead of after main.tsx asked for them.
 */
export function routePreloads(opts: { homeFacade: string; appFacades: string[]; firstNamespaces: string[] }): Plugin {
  return {
    name: 'portal:route-preloads',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle as OutputBundle | undefined;
        if (!bundle) return html;
        const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === 'chunk');
        const byFacade = (f: string) => chunks.find((c) => c.facadeModuleId?.replaceAll('\\', '/').endsWith(f));
        const seen = new Set<string>();
        const closure = (c: OutputChunk | undefined, out: string[]) => {
          if (!c || seen.has(c.fileName)) return;
          seen.add(c.fileName);
          out.push(c.fileName);
          for (const f of c.imports) closure(bundle[f] as OutputChunk | undefined, out);
        };
        // Already fetched by the entry's tag and the app's preloads (and their styles, linked by index.html or loaded with the app).
        const early: string[] = [];
        for (const c of chunks.filter((x) => x.isEntry)) closure(c, early);
        for (const f of opts.appFacades) closure(byFacade(f), early);
        const earlyCss = new Set(early.flatMap((f) => [...((bundle[f] as OutputChunk | undefined)?.viteMetadata?.importedCss ?? [])]));
        const isEntryCss = (css: string) => earlyCss.has(css);
        const home: string[] = [];
        closure(byFacade(opts.homeFacade), home);
        const locales: Record<string, string[]> = {};
        for (const c of chunks) {
          const m = /\/locales\/([a-z]+)\/([a-z-]+)\.json$/.exec(c.facadeModuleId?.replaceAll('\\', '/') ?? '');
          if (!m || !opts.firstNamespaces.includes(m[2]!)) continue;
          (locales[m[1]!] ??= []).push(`/${c.fileName}`);
        }
        // The home chunks' styles: the dynamic import of the home page waits for them (Vite's preload
        // helper), and it skips a stylesheet already in the document, so they load with the chunks.
        const homeCss: string[] = [];
        for (const f of home) {
          const c = bundle[f] as OutputChunk | undefined;
          for (const css of c?.viteMetadata?.importedCss ?? []) if (!homeCss.includes(`/${css}`) && !isEntryCss(css)) homeCss.push(`/${css}`);
        }
        const data = { home: home.map((f) => `/${f}`), homeCss, locales };
        // Right before theme-boot.js, which reads it (after <meta charset>).
        const boot = '<script src="/theme-boot.js"></script>';
        if (!html.includes(boot)) throw new Error('index.html has no theme-boot.js script for the route preloads');
        return html.replace(boot, `<script type="application/json" id="route-preload">${JSON.stringify(data).replace(/</g, '\\u003c')}</script>\n    ${boot}`);
      },
    },
  };
}

