import path from 'node:path';

/** What rolldown's chunking context tells about a module (the part used here). */
type Info = { importedIds: readonly string[]; importers: readonly string[]; dynamicImporters: readonly string[] } | null;
type Ctx = { getModuleInfo(id: string): Info };

/**
 * The first load in a few chunks instead of ~45 small ones: each small file compresses on its own
 * (brotli learns nothing across files) and is one more request. The modules are grouped by *when*
 * they run, which the grouping must not change (main.tsx restores the session before it imports
 * the app, whose modules read the login state when they load):
 *
 * - `boot`: what main.tsx (the entry chunk) imports statically (runs first);
 * - `i18n`: what src/i18n/i18n.ts adds (imported before the session is restored);
 * - `shell`: what the app (src/app/app.tsx) and the global popups add: every page runs it after
 *   the session is restored, so a module shared with a lazy route is fetched once, here;
 * - `home`: what only the home page uses (a module that another page imports too stays out, so
 *   that page does not fetch the home page).
 *
 * Libraries keep their own groups (react), and lazy routes keep rolldown's automatic chunks.
 * Returns codeSplitting groups for vite.config.ts.
 */
export function firstLoadGroups(clientRoot: string) {
  const id = (p: string) => path.resolve(clientRoot, p);
  const BOOT = [id('src/main.tsx')];
  const I18N = [id('src/i18n/i18n.ts')];
  const SHELL = [id('src/app/app.tsx'), id('src/app/layout/global-popups.tsx')];
  const HOME = id('src/features/home/components/home-page.tsx');
  let sets: { boot: Set<string>; i18n: Set<string>; shell: Set<string>; home: Set<string> } | null = null;

  const closure = (ctx: Ctx, roots: string[], stop: Set<string>[]) => {
    const out = new Set<string>();
    const visit = (m: string) => {
      if (out.has(m) || stop.some((s) => s.has(m))) return;
      const info = ctx.getModuleInfo(m);
      if (!info) return;
      out.add(m);
      for (const d of info.importedIds) visit(d);
    };
    roots.forEach(visit);
    return out;
  };

  const compute = (ctx: Ctx) => {
    const boot = closure(ctx, BOOT, []);
    // main.tsx itself stays the entry chunk: it awaits the i18n and app chunks (top-level await),
    // which import from `boot`; in `boot` it would wait for them while they wait for it.
    for (const m of BOOT) boot.delete(m);
    const i18n = closure(ctx, I18N, [boot]);
    const shell = closure(ctx, SHELL, [boot, i18n]);
    const home = closure(ctx, [HOME], [boot, i18n, shell]);
    // Keep in `home` only what the home page alone reaches: drop a module another chunk imports
    // statically or dynamically, until nothing changes.
    for (let changed = true; changed; ) {
      changed = false;
      for (const m of home) {
        if (m === HOME) continue;
        const info = ctx.getModuleInfo(m);
        if (!info || info.dynamicImporters.length > 0 || info.importers.some((i) => !home.has(i))) {
          home.delete(m);
          changed = true;
        }
      }
    }
    return { boot, i18n, shell, home };
  };

  const group = (name: 'boot' | 'i18n' | 'shell' | 'home', priority: number) => ({
    name: (m: string, ctx: Ctx) => {
      sets ??= compute(ctx);
      return sets[name].has(m) ? name : null;
    },
    priority,
    // Capturing a module's dependencies would pull later groups' modules into an earlier chunk.
    includeDependenciesRecursively: false,
  });

  return [group('boot', 2.4), group('i18n', 2.3), group('shell', 2.2), group('home', 2.1)];
}
