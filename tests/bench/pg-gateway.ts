/**
 * Helpers shared by the benches that run on real PostgreSQL and the real gateway child process
 * (ledger.ts / ledger-fault.ts, vendor.ts): a throwaway database on 127.0.0.1:5432, a free loopback
 * port, the gateway started as `node --import tsx gateway/src/main.ts` and waited for, a vendor
 * account with a known secret plus one live game session per member, and signed vendor calls.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { createServer } from 'node:net';
import pg from 'pg';
import type { Db } from '../../gateway/src/db/db.ts';
import { signVendorRequest } from '../../gateway/src/modules/provider/vendor-routes.ts';
import { sleep, wallMs } from './common.ts';

/** DATABASE_URL if set (never dropped), else a new database `<prefix>_<pid>_<time>` on 127.0.0.1:5432, dropped by `drop()`. */
export async function preparePg(prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, drop: async () => {} };
  const admin = 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  return {
    url: `postgres://postgres@127.0.0.1:5432/${name}`,
    drop: async () => {
      const d = new pg.Client({ connectionString: admin });
      await d.connect();
      await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await d.end();
    },
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
  });
}

export type GatewaySpec = {
  root: string;
  url: string;
  port: number;
  nodeId: string;
  /** children get registered here so the bench kills them on exit */
  track: (c: ChildProcess) => void;
  untrack: (c: ChildProcess) => void;
  onStderr?: (s: string) => void;
  /** extra node options before the entry point, e.g. --cpu-prof */
  nodeArgs?: string[];
};

/**
 * The real gateway (`NODE_ENV=production`, `SEED=none`, in-process bus) on 127.0.0.1:`port` against
 * `url`; resolves when /healthz answers (bounded: 60 s).
 */
export async function startGateway(spec: GatewaySpec): Promise<{ child: ChildProcess; readyMs: number }> {
  const t0 = wallMs();
  let tail = '';
  const child = spawn(process.execPath, [...(spec.nodeArgs ?? []), '--import', 'tsx', 'gateway/src/main.ts'], {
    cwd: spec.root,
    env: {
      ...process.env, DATABASE_URL: spec.url, PORT: String(spec.port), HOST: '127.0.0.1', NODE_ENV: 'production', SEED: 'none',
      LOG_LEVEL: 'warn', REDIS_URL: '', NODE_ID: spec.nodeId,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  spec.track(child);
  child.stderr!.on('data', (b: Buffer) => {
    tail = (tail + b.toString()).slice(-2000);
    spec.onStderr?.(b.toString());
  });
  child.once('exit', () => spec.untrack(child));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`gateway exited (${child.exitCode}) while starting: ${tail}`);
    if (wallMs() - t0 > 60_000) {
      child.kill('SIGKILL');
      throw new Error('gateway not ready after 60 s');
    }
    try {
      const r = await fetch(`http://127.0.0.1:${spec.port}/healthz`, { signal: AbortSignal.timeout(1000) });
      if (r.ok) break;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  return { child, readyMs: wallMs() - t0 };
}

export async function killChild(c: ChildProcess | null, signal: NodeJS.Signals = 'SIGKILL') {
  if (!c || c.exitCode !== null || c.signalCode !== null) return;
  const exited = new Promise<void>((r) => c.once('exit', () => r()));
  c.kill(signal);
  await exited;
}

/**
 * CPU seconds used so far by the whole machine (all cores, from /proc/stat) and by PostgreSQL's
 * processes (every process named `postgres`), so a phase can say who had the cores; null off Linux.
 */
export function hostCpu(): { busy: number; pg: Map<number, number> } | null {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const busy = (f[0]! + f[1]! + f[2]! + f[5]! + f[6]! + f[7]!) / 100; // user nice system irq softirq steal
    const pg = new Map<number, number>();
    for (const d of readdirSync('/proc')) {
      if (!/^\d+$/.test(d)) continue;
      try {
        const st = readFileSync(`/proc/${d}/stat`, 'utf8');
        if (st.slice(st.indexOf('(') + 1, st.lastIndexOf(')')) !== 'postgres') continue;
        const x = st.slice(st.lastIndexOf(')') + 2).split(' ');
        pg.set(Number(d), (Number(x[11]) + Number(x[12])) / 100);
      } catch {
        // gone meanwhile
      }
    }
    return { busy, pg };
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) a child process has used so far, from /proc (Linux); null elsewhere. */
export function processCpuSeconds(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return null;
  }
}

/**
 * A vendor account with a fresh known secret, and one live game session per member for game G1
 * (the token a vendor gets by trading a launch code; stored hashed as the wallet's authenticate does).
 */
export async function setupVendor(db: Db, merchant: string, vendor: string, members: number[]): Promise<{ secret: string; tokens: string[] }> {
  const secret = randomBytes(32).toString('hex');
  await db.query(
    `INSERT INTO vendor_accounts (merchant_code, vendor, secret, launch_url) VALUES ($1, $2, $3, 'https://vendor.invalid/play')
     ON CONFLICT (merchant_code, vendor) DO UPDATE SET secret = EXCLUDED.secret`,
    [merchant, vendor, secret],
  );
  const tokens = members.map(() => randomBytes(32).toString('base64url'));
  await db.query(
    `INSERT INTO game_sessions (token_hash, merchant_code, member_id, vendor, game_code, expires_at)
     SELECT h, $1, m, $2, 'G1', now() + interval '1 hour' FROM unnest($3::bytea[], $4::bigint[]) AS x(h, m)`,
    [merchant, vendor, tokens.map((t) => createHash('sha256').update(t).digest()), members],
  );
  return { secret, tokens };
}

/** Headers of a signed vendor call (X-Timestamp, X-Signature = HMAC of `${ts}.${raw}`). */
export function vendorHeaders(merchant: string, secret: string, raw: string): Record<string, string> {
  const ts = Math.floor(Date.now() / 1000);
  return { 'content-type': 'application/json', 'x-merchant-code': merchant, 'x-timestamp': String(ts), 'x-signature': signVendorRequest(secret, ts, raw) };
}

/** A plain-text table: first and last columns left-aligned, the others right-aligned. */
export function textTable(head: string[], rows: string[][]): string {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 || i === r.length - 1 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join(' | ');
  return [line(head), w.map((n) => '-'.repeat(n)).join('-|-'), ...rows.map(line)].join('\n');
}

/**
 * The run guard of a bench that starts child processes: they are SIGKILLed on exit, the whole run
 * stops at `minutes`, and a busy machine is reported up front.
 */
export function guardRun(name: string, minutes: number) {
  const children = new Set<ChildProcess>();
  const killAll = () => {
    for (const c of children) if (c.exitCode === null && c.pid) c.kill('SIGKILL');
  };
  process.on('exit', killAll);
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => process.exit(130));
  const deadline = setTimeout(() => {
    console.error(`${name} bench: overall deadline (${minutes} min) reached, stopping`);
    process.exit(2);
  }, minutes * 60_000);
  deadline.unref();
  const started = new Date();
  const loadStart = os.loadavg()[0]!;
  if (loadStart > os.cpus().length)
    console.warn(`${name} bench: WARNING load average ${loadStart.toFixed(1)} on ${os.cpus().length} cores: other work shares this machine, figures will be low and noisy`);
  return { children, killAll, started, loadStart };
}
