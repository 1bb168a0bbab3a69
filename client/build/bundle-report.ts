import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * `ANALYZE=1 npm run build`: writes dist/.vite/bundle-report.json (not served), every chunk with its size, its static
 * and dynamic imports and the modules in it (rendered bytes, largest first), and prints the largest
 * modules of each chunk. Read it with vite's manifest (dist/.vite/manifest.json) to see what a page
 * loads first.
 */
export function bundleReport(): Plugin {
  let outDir = 'dist';
  return {
    name: 'portal:bundle-report',
    apply: 'build',
    configResolved(c) {
      outDir = path.resolve(c.root, c.build.outDir);
    },
    generateBundle(_opts, bundle) {
      if (process.env.ANALYZE !== '1') return;
      const chunks = Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [c] : []));
      const report = chunks.map((c) => ({
        file: c.fileName,
        bytes: c.code.length,
        isEntry: c.isEntry,
        imports: c.imports,
        dynamicImports: c.dynamicImports,
        modules: Object.entries(c.modules)
          .map(([id, m]) => ({ id: id.replace(/^.*node_modules[\\/]/, 'npm:').replace(process.cwd(), '.'), bytes: m.renderedLength }))
          .sort((a, b) => b.bytes - a.bytes),
      })).sort((a, b) => b.bytes - a.bytes);
      mkdirSync(path.join(outDir, '.vite'), { recursive: true });
      writeFileSync(path.join(outDir, '.vite/bundle-report.json'), JSON.stringify(report, null, 2));
      for (const c of report.slice(0, 12)) {
        console.log(`\n${c.file} ${(c.bytes / 1024).toFixed(1)} KB`);
        for (const m of c.modules.slice(0, 8)) console.log(`  ${(m.bytes / 1024).toFixed(1).padStart(7)} KB  ${m.id}`);
      }
    },
  };
}
