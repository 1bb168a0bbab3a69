import path from 'node:path';
import { readFileSync } from 'node:fs';
import { HOME_PAGE_CHUNKS, gzipBytes, jsClosure, readManifest } from '/work/wt-webfix/tests/e2e/support/bundle.ts';
const dist = '/work/wt-webfix/client/dist';
const m = readManifest(dist);
const files = jsClosure(m, HOME_PAGE_CHUNKS);
let tot = 0;
const rows = files.map(f => { const g = gzipBytes(dist, [f]); tot += g.gzip; return [f, g.raw, g.gzip] as const; }).sort((a,b)=>b[2]-a[2]);
for (const r of rows) console.log(String(r[2]).padStart(8), String(r[1]).padStart(8), r[0]);
console.log('total gzip', tot, (tot/1024).toFixed(1));
if (process.argv[2]) {
  const rep = JSON.parse(readFileSync(dist + '/.vite/bundle-report.json','utf8'));
  for (const c of rep) if (files.includes(c.file) && c.file.match(process.argv[2])) { console.log('\n'+c.file); for (const mm of c.modules.slice(0,60)) console.log(String(mm.bytes).padStart(8), mm.id); }
}
