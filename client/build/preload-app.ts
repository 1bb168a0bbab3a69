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
