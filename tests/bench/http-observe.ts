/**
 * `node --import tsx tests/bench/http-observe.ts`: what the observability middleware (observeHttp: request id,
 * AsyncLocalStorage context, latency histogram) costs an Express request, in server CPU time.
 * The server (this process) serves one JSON route whose handler awaits ten times, as a handler with a
 * few queries does; a child process drives it with 32 keep-alive connections. Rounds alternate bare
 * Express, observeHttp without and with AsyncLocalStorage (REQUEST_ID_IN_EVENTS), each in a fresh process (AsyncLocalStorage's hooks, once on,
 * stay on for the process); the figure per variant is the median of the rounds' CPU per request.
 * Options: --requests N (20000 per round) --rounds R (3 per variant).
 */
import { fork } from 'node:child_process';
import { createServer, request, Agent } from 'node:http';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { pino } from 'pino';
import { observeHttp } from '../../gateway/src/obs/observability.ts';

const SELF = fileURLToPath(import.meta.url);
const CONCURRENCY = 32;

function arg(name: string, def: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
}

/** Child: drive `n` GETs at the port, then exit. */
async function client(port: number, n: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  let sent = 0;
  const one = () => new Promise<void>((resolve, reject) => {
    const r = request({ host: '127.0.0.1', port, path: `/wps/x/${sent}`, agent }, (res) => {
      res.resume();
      res.on('end', resolve);
    });
    r.on('error', reject);
    r.end();
  });
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (sent < n) {
      sent++;
      await one();
    }
  }));
  agent.destroy();
}

/** Server process: serve, run a warm-up and a measured drive, print CPU microseconds per request. */
type Variant = 'bare' | 'observe' | 'observe-als';
async function server(variant: Variant, n: number) {
  const app = express();
  if (variant !== 'bare') app.use(observeHttp(pino({ level: 'info' }), { idInEvents: variant === 'observe-als' }));
  app.get('/wps/x/:id', async (req, res) => {
    let v = 0;
    for (let i = 0; i < 10; i++) v += await Promise.resolve(i);
    res.json({ success: true, value: { id: req.params.id, v } });
  });
  const http = createServer(app);
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const port = (http.address() as { port: number }).port;
  const drive = (count: number) => new Promise<void>((resolve, reject) => {
    const c = fork(SELF, ['--client', String(port), String(count)], { execArgv: process.execArgv });
    c.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`client exited ${code}`))));
  });
  await drive(2000);
  const c0 = process.cpuUsage();
  await drive(n);
  const c = process.cpuUsage(c0);
  http.close();
  return (c.user + c.system) / n;
}

function runServer(variant: Variant, n: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const c = fork(SELF, ['--server', variant, String(n)], { execArgv: process.execArgv });
    c.on('message', (m) => resolve(Number(m)));
    c.on('exit', (code) => code !== 0 && reject(new Error(`server exited ${code}`)));
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

if (process.argv.includes('--client')) {
  const i = process.argv.indexOf('--client');
  await client(Number(process.argv[i + 1]), Number(process.argv[i + 2]));
  process.exit(0);
} else if (process.argv.includes('--server')) {
  const i = process.argv.indexOf('--server');
  const us = await server(process.argv[i + 1] as Variant, Number(process.argv[i + 2]));
  process.send!(us, () => process.exit(0));
} else {
  const n = arg('--requests', 20_000);
  const rounds = arg('--rounds', 3);
  const variants: Variant[] = ['bare', 'observe', 'observe-als'];
  const cpu: Record<Variant, number[]> = { bare: [], observe: [], 'observe-als': [] };
  for (let r = 0; r < rounds; r++) for (const v of variants) cpu[v].push(await runServer(v, n));
  const b = median(cpu.bare);
  console.log(`HTTP observability overhead: ${n} requests per round, ${rounds} rounds per variant, ${CONCURRENCY} connections`);
  for (const v of variants) {
    const m = median(cpu[v]);
    const label = v === 'bare' ? 'bare Express' : v === 'observe' ? 'observeHttp (REQUEST_ID_IN_EVENTS=off)' : 'observeHttp + AsyncLocalStorage (=on)';
    console.log(`  ${label.padEnd(42)} ${m.toFixed(1)} us server CPU per request${v === 'bare' ? '' : ` (+${(m - b).toFixed(1)} us)`}  rounds: ${cpu[v].map((x) => x.toFixed(0)).join(', ')}`);
  }
}
