/**
 * `npm run bench -- --web`: first paint of the built portal in headless Chromium, beside a bare page.
 *
 * 1. Starts the production portal (web-server.ts: PGlite in memory, demo content without accounts,
 *    production mode, the built client of `--root`/client/dist) and a bare node:http server that
 *    answers one static HTML page with one image (the image of the home page's LCP element when it
 *    has one, so both pages paint the same bytes).
 * 2. Loads, in /usr/bin/chromium (playwright-core), the home page, two other pages and the bare
 *    page, --runs times each, interleaved (so load on the machine hits every page alike), each load
 *    in a fresh context with the HTTP cache disabled (CDP Network.setCacheDisabled).
 * 3. Reads LCP and FCP from PerformanceObserver (buffered), and the JS and CSS fetched from the
 *    resource timing entries: bytes on the wire (encodedBodySize: compressed when the server
 *    compressed), uncompressed (decodedBodySize), number of files.
 * 4. Prints median and p90 per page, and the ratio of each page's median LCP to the bare page's
 *    (meaningful on a busy machine, where absolute times are not); JSON to tests/bench/results/web.json.
 * 5. Idle cost: each page (and the bare page) opened once more and left alone after it settled, with
 *    the browser's reduced-motion setting off and on; Chromium's CPU over --idle-seconds (all its
 *    processes, CDP SystemInfo.getProcessInfo), in cores. Here Chromium draws without a GPU, so what
 *    moves by itself on a page costs CPU for as long as the page is open (--idle-seconds 0 skips it).
 *
 * Options: --runs N (7) --pages /,/fish,/register --root DIR (the checkout to serve, default this
 * one: `git archive main | tar -x -C DIR` plus a build measures main) --out FILE --shots (screenshots
 * of the last run to /tmp/web-<page>.png) --build (`npm run build` in the root first).
 *
 * It measures the built client (client/dist), so it refuses to start when that build is missing or
 * older than the client's sources (or the contracts it bundles): a missing build would measure an
 * empty page, a stale one the previous code. `--build` builds first.
 */
import { execFileSync, fork } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');

type Sample = { lcpMs: number; fcpMs: number; lcpUrl: string; js: Bytes; css: Bytes };
type Bytes = { files: number; wire: number; raw: number };
type Dist = { median: number; p90: number };

function parseArgs(argv: string[]) {
  const o = { runs: 7, pages: ['/', '/fish', '/register'], root: ROOT, out: path.join(HERE, 'results', 'web.json'), shots: false, build: false, idleSeconds: 5 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--runs') {
      o.runs = Math.floor(Number(argv[++i]));
      if (!(o.runs > 0)) throw new Error('--runs needs a positive number');
    } else if (a === '--pages') o.pages = (argv[++i] ?? '').split(',').filter(Boolean);
    else if (a === '--root') o.root = path.resolve(argv[++i] ?? '');
    else if (a === '--out') o.out = path.resolve(argv[++i] ?? '');
    else if (a === '--shots') o.shots = true;
    else if (a === '--build') o.build = true;
    else if (a === '--idle-seconds') {
      o.idleSeconds = Number(argv[++i]);
      if (!(o.idleSeconds >= 0)) throw new Error('--idle-seconds needs a number >= 0');
    } else if (a === '--help' || a === '-h') {
      console.log('npm run bench -- --web [--runs N] [--pages /,/fish,/register] [--root DIR] [--out FILE] [--shots] [--build] [--idle-seconds N]');
      process.exit(0);
    } else throw new Error(`unknown option ${a} (try --help)`);
  }
  return o;
}

function dist(values: number[]): Dist {
  const s = [...values].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? NaN;
  const median = s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  return { median, p90: at(0.9) };
}

/** What the client build is made of (tests are not). */
const BUILD_INPUTS = ['client/src', 'client/public', 'client/build', 'client/index.html', 'client/vite.config.ts', 'client/package.json', 'contracts/src'];

/** The newest file among `paths` of `root` (test files excepted), or null when there is none. */
function newestInput(root: string, paths: string[]): { file: string; mtimeMs: number } | null {
  let newest: { file: string; mtimeMs: number } | null = null;
  const visit = (p: string) => {
    if (!existsSync(p)) return;
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const e of readdirSync(p)) if (e !== 'node_modules' && !e.startsWith('.')) visit(path.join(p, e));
    } else if (!/\.test\.tsx?$/.test(p) && (!newest || st.mtimeMs > newest.mtimeMs)) newest = { file: p, mtimeMs: st.mtimeMs };
  };
  for (const p of paths) visit(path.join(root, p));
  return newest;
}

/**
 * Throws, with what to do, when `root`'s client/dist is missing or older than its sources:
 * the bench would otherwise measure an empty page (no build) or the code before the last change.
 */
export function assertFreshBuild(root: string): void {
  const manifest = path.join(root, 'client/dist/.vite/manifest.json');
  const where = path.relative(process.cwd(), root) || '.';
  if (!existsSync(manifest) || !existsSync(path.join(root, 'client/dist/index.html'))) {
    throw new Error(`no client build in ${where}/client/dist: run \`npm run build\` first (or add --build)`);
  }
  const built = statSync(manifest).mtimeMs;
  const newest = newestInput(root, BUILD_INPUTS);
  if (newest && newest.mtimeMs > built) {
    throw new Error(`${where}/client/dist is older than ${path.relative(root, newest.file)} (changed ${new Date(newest.mtimeMs).toISOString()}, built ${new Date(built).toISOString()}): run \`npm run build\` first (or add --build)`);
  }
}

/** The portal child: resolves with its port, rejects if it dies first. */
function startPortal(root: string) {
  const child = fork(path.join(HERE, 'web-server.ts'), [], {
    cwd: root,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, WEB_BENCH_ROOT: root, NODE_ENV: 'production', DATABASE_URL: '', REDIS_URL: '' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = new Promise<number>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('portal not ready after 120 s')), 120_000);
    child.on('message', (m: { ready?: boolean; port?: number }) => {
      if (m.ready) {
        clearTimeout(t);
        resolve(m.port!);
      }
    });
    child.on('exit', (code) => reject(new Error(`portal exited (${code}) before ready`)));
  });
  return { child, ready };
}

/** The bare page: one HTML document and one image, from node:http, no compression. */
async function startBare(image: { type: string; body: Buffer } | null): Promise<{ server: Server; url: string }> {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>bare</title></head>
<body style="margin:0;font-family:sans-serif"><h1 style="margin:16px">Bare page</h1>${image ? '<img src="/lcp" alt="" style="display:block;width:100%;max-width:1280px">' : '<p style="margin:16px;font-size:32px">A paragraph of text is the largest element of this page.</p>'}</body></html>`;
  const server = createServer((req, res) => {
    if (req.url === '/lcp' && image) res.writeHead(200, { 'Content-Type': image.type, 'Content-Length': image.body.length }).end(image.body);
    else res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const addr = server.address();
  return { server, url: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/` };
}

// Page scripts are strings: tsx's name-keeping helpers (__name) do not exist in the page.
const OBSERVE = `(() => {
  const p = (window.__perf = { lcp: 0, lcpUrl: '', fcp: 0 });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) { p.lcp = e.startTime; p.lcpUrl = e.url || ''; }
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') p.fcp = e.startTime;
  }).observe({ type: 'paint', buffered: true });
})()`;
const COLLECT = `(() => {
  const p = window.__perf;
  const sum = (ext) => {
    const list = performance.getEntriesByType('resource').filter((e) => new URL(e.name).pathname.endsWith(ext));
    return { files: list.length, wire: list.reduce((a, e) => a + e.encodedBodySize, 0), raw: list.reduce((a, e) => a + e.decodedBodySize, 0) };
  };
  return { lcpMs: p.lcp, fcpMs: p.fcp, lcpUrl: p.lcpUrl, js: sum('.js'), css: sum('.css') };
})()`;

async function measure(browser: Browser, url: string, shot: string | null): Promise<Sample> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await page.addInitScript({ content: OBSERVE });
    await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
    // LCP can move until the page settles: wait for the network to go quiet (websockets do not count).
    await page.waitForLoadState('networkidle', { timeout: 20_000 }).catch(() => undefined);
    // On a saturated machine the scripts may still be running when the network is quiet: wait for
    // the first paint (else the sample would read LCP 0), up to 60 s.
    await page.waitForFunction('window.__perf.lcp > 0', undefined, { timeout: 60_000, polling: 100 }).catch(() => undefined);
    await page.waitForTimeout(300);
    const r = (await page.evaluate(COLLECT)) as Sample;
    if (shot) await page.screenshot({ path: shot });
    return r;
  } finally {
    await context.close();
  }
}

/** CPU seconds of each of the browser's processes now (by process id). */
async function chromiumCpu(browser: Browser): Promise<Map<number, number>> {
  const cdp = await browser.newBrowserCDPSession();
  try {
    const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo')) as { processInfo: Array<{ id: number; cpuTime: number }> };
    return new Map(processInfo.map((p) => [p.id, p.cpuTime]));
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

/** Chromium's CPU (cores) while `url` sits open and untouched for `seconds`, after it settled. */
async function idleCpu(browser: Browser, url: string, reducedMotion: boolean, seconds: number): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', reducedMotion: reducedMotion ? 'reduce' : 'no-preference' });
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
    await page.waitForLoadState('networkidle', { timeout: 20_000 }).catch(() => undefined);
    await page.waitForTimeout(2_000);
    const before = await chromiumCpu(browser);
    const t0 = performance.now();
    await page.waitForTimeout(seconds * 1000);
    const after = await chromiumCpu(browser);
    const wall = (performance.now() - t0) / 1000;
    let cpu = 0;
    for (const [id, t] of after) if (before.has(id)) cpu += t - before.get(id)!;
    return cpu / wall;
  } finally {
    await context.close();
  }
}

export async function main(argv: string[]): Promise<number> {
  const opts = parseArgs(argv);
  try {
    if (opts.build) execFileSync('npm', ['run', 'build'], { cwd: opts.root, stdio: 'inherit' });
    assertFreshBuild(opts.root);
  } catch (err) {
    console.error('bench --web:', err instanceof Error ? err.message : err);
    return 1;
  }
  const loadStart = os.loadavg()[0]!;
  if (loadStart > os.cpus().length) console.warn(`bench --web: WARNING load average ${loadStart.toFixed(1)} on ${os.cpus().length} cores: absolute times will be high, compare the ratios`);
  const portal = startPortal(opts.root);
  const kill = () => portal.child.exitCode === null && portal.child.kill('SIGKILL');
  process.on('exit', kill);
  let bare: { server: Server; url: string } | null = null;
  let browser: Browser | null = null;
  try {
    const port = await portal.ready;
    const base = `http://127.0.0.1:${port}`;
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
    });
    // Warm-up (server caches, Chromium's first start), and the home page's LCP image for the bare page.
    const warm = await measure(browser, base + '/', null);
    if (warm.js.files === 0) throw new Error('the home page fetched no JavaScript: is client/dist a build of this portal?');
    let image: { type: string; body: Buffer } | null = null;
    if (warm.lcpUrl) {
      const res = await fetch(warm.lcpUrl);
      if (res.ok) image = { type: res.headers.get('content-type') ?? 'application/octet-stream', body: Buffer.from(await res.arrayBuffer()) };
    }
    bare = await startBare(image);
    const targets = [...opts.pages.map((p) => ({ name: p, url: base + p })), { name: 'bare', url: bare.url }];
    const samples = new Map<string, Sample[]>(targets.map((t) => [t.name, []]));
    for (let run = 0; run < opts.runs; run++) {
      for (const t of targets) {
        const last = opts.shots && run === opts.runs - 1;
        const shot = last ? `/tmp/web-${t.name === '/' ? 'home' : t.name.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}.png` : null;
        samples.get(t.name)!.push(await measure(browser, t.url, shot));
      }
      process.stdout.write(`\rrun ${run + 1}/${opts.runs}`);
    }
    process.stdout.write('\n');
    const bareLcp = dist(samples.get('bare')!.map((s) => s.lcpMs)).median;
    const rows = targets.map((t) => {
      const s = samples.get(t.name)!;
      const lcp = dist(s.map((x) => x.lcpMs));
      const fcp = dist(s.map((x) => x.fcpMs));
      const last = s[s.length - 1]!;
      return { page: t.name, lcpMs: lcp, fcpMs: fcp, lcpRatioToBare: lcp.median / bareLcp, lcpElementUrl: last.lcpUrl || null, js: last.js, css: last.css, runs: s };
    });
    const kb = (n: number) => (n / 1024).toFixed(1);
    const line = (c: string[]) => c.map((x, i) => (i ? x.padStart(14) : x.padEnd(12))).join(' ');
    console.log(`\n${opts.runs} runs per page, cache disabled, root ${path.relative(process.cwd(), opts.root) || '.'}, load average ${loadStart.toFixed(1)} -> ${os.loadavg()[0]!.toFixed(1)}`);
    console.log(line(['page', 'LCP med/p90', 'FCP med/p90', 'LCP / bare', 'JS files', 'JS KB wire', 'JS KB raw', 'CSS KB wire']));
    for (const r of rows)
      console.log(line([r.page, `${r.lcpMs.median.toFixed(0)}/${r.lcpMs.p90.toFixed(0)} ms`, `${r.fcpMs.median.toFixed(0)}/${r.fcpMs.p90.toFixed(0)} ms`, `${r.lcpRatioToBare.toFixed(2)}x`, String(r.js.files), kb(r.js.wire), kb(r.js.raw), kb(r.css.wire)]));
    const idle: Array<{ page: string; motionCores: number; reducedMotionCores: number }> = [];
    if (opts.idleSeconds > 0) {
      for (const t of targets) {
        idle.push({ page: t.name, motionCores: await idleCpu(browser, t.url, false, opts.idleSeconds), reducedMotionCores: await idleCpu(browser, t.url, true, opts.idleSeconds) });
      }
      console.log(`\nChromium CPU while a page sits open after it settled (${opts.idleSeconds} s each, no GPU), cores:`);
      console.log(line(['page', 'motion', 'reduced motion']));
      for (const r of idle) console.log(line([r.page, r.motionCores.toFixed(2), r.reducedMotionCores.toFixed(2)]));
    }
    const report = {
      command: `npm run bench -- --web ${argv.join(' ')}`.trim(),
      startedAt: new Date().toISOString(),
      machine: { node: process.version, cpus: os.cpus().length, loadAvgStart: loadStart, loadAvgEnd: os.loadavg()[0] },
      root: opts.root,
      chromium: browser.version(),
      rows,
      idle,
    };
    mkdirSync(path.dirname(opts.out), { recursive: true });
    writeFileSync(opts.out, JSON.stringify(report, null, 2));
    console.log(`JSON: ${path.relative(process.cwd(), opts.out)}`);
    return 0;
  } catch (err) {
    console.error('bench --web failed:', err instanceof Error ? err.stack ?? err.message : err);
    return 1;
  } finally {
    await browser?.close().catch(() => undefined);
    bare?.server.close();
    if (portal.child.exitCode === null) {
      const exited = new Promise<void>((r) => portal.child.once('exit', () => r()));
      portal.child.kill('SIGTERM');
      const t = setTimeout(kill, 10_000);
      await exited;
      clearTimeout(t);
    }
  }
}
