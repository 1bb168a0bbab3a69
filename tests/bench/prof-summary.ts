/**
 * Summarise a V8 .cpuprofile (from `npm run bench -- --cpu-prof`): self time by function and by
 * package/file, and inclusive time of chosen frames.
 *   node --import tsx tests/bench/prof-summary.ts tests/bench/results/prof/gateway-*.cpuprofile [topN]
 */
import { readFileSync } from 'node:fs';

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[]; hitCount?: number };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

const file = process.argv[2];
if (!file) throw new Error('usage: prof-summary.ts FILE.cpuprofile [topN]');
const top = Number(process.argv[3] ?? 25);
const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

// Self time per node from samples and time deltas.
const self = new Map<number, number>();
for (let i = 0; i < p.samples.length; i++) {
  const id = p.samples[i]!;
  self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0));
}
const total = [...self.values()].reduce((a, b) => a + b, 0);

function where(url: string): string {
  if (!url) return '(native/vm)';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1]!;
  const w = /\/work\/[^/]+\/(.*)$/.exec(url);
  if (w) return w[1]!;
  return url.replace(/^node:/, 'node:');
}

const fnSelf = new Map<string, number>();
const pkgSelf = new Map<string, number>();
for (const [id, t] of self) {
  const n = byId.get(id)!;
  const f = `${n.callFrame.functionName || '(anonymous)'} ${where(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
  fnSelf.set(f, (fnSelf.get(f) ?? 0) + t);
  const pk = where(n.callFrame.url).split('/').slice(0, 3).join('/');
  pkgSelf.set(pk, (pkgSelf.get(pk) ?? 0) + t);
}

// Inclusive time per package: a sample counts once for every distinct package on its stack.
const pkgIncl = new Map<string, number>();
for (const [id, t] of self) {
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const n = byId.get(cur)!;
    seen.add(where(n.callFrame.url).split('/').slice(0, 3).join('/'));
  }
  for (const s of seen) pkgIncl.set(s, (pkgIncl.get(s) ?? 0) + t);
}

const pct = (v: number) => `${((v / total) * 100).toFixed(1).padStart(5)}%`;
console.log(`profile ${file}: ${(total / 1e6).toFixed(2)} s sampled`);
console.log('\nself time by function:');
for (const [f, t] of [...fnSelf].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(t)}  ${f}`);
console.log('\nself time by package/file:');
for (const [f, t] of [...pkgSelf].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(t)}  ${f}`);
console.log('\ninclusive time by package/file:');
for (const [f, t] of [...pkgIncl].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(t)}  ${f}`);
