import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGLITE_DUMP_ENV, PGLITE_FULL_SEEDED_DUMP_ENV, PGLITE_SEEDED_DUMP_ENV } from '@portal/gateway/testing/dump-env';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Ports freePort has handed out in this process: never handed out twice (see freePort). */
const handedOut = new Set<number>();

/**
 * A port nothing listens on now, for a server this process is about to start. The port is closed
 * again before the server binds it, so the system may offer the same one to the next caller: a
 * gateway and its vendor simulator were once given the same port, the simulator bound it first and
 * answered the gateway's health check, and a whole file's tests met the simulator instead of the
 * portal. So a port is handed out once per process (and waitHealthy checks who answers).
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const s = createServer();
      s.once('error', reject);
      s.listen(0, '127.0.0.1', () => {
        const addr = s.address();
        const p = typeof addr === 'object' && addr ? addr.port : 0;
        s.close(() => resolve(p));
      });
    });
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
}

/** boot(): something other than the child answers on its port (see waitHealthy). */
export class PortTakenError extends Error {}

/**
 * Process groups started here and not stopped yet: killed if this process exits first (a failed
 * afterAll, an interrupted run). On a signal nobody else handles, the default (exit) follows.
 */
const liveGroups = new Set<number>();
const killLive = () => {
  for (const pid of liveGroups) killGroup(pid, 'SIGKILL');
  liveGroups.clear();
};
process.once('exit', killLive);
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(sig, function onSignal() {
    killLive();
    if (process.listenerCount(sig) === 1) {
      process.off(sig, onSignal);
      process.kill(process.pid, sig);
    }
  });
}

/** Signal a whole process group (the gateway and anything it started); false when it is already gone. */
function killGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

export type GatewayProcessOptions = {
  /** How long boot() waits for /healthz (default 60 s). */
  bootTimeoutMs?: number;
  /** Node arguments of the process (default: the gateway, as `npm start` runs it). */
  nodeArgs?: readonly string[];
};

/**
 * The real gateway as its own process, serving the built client, exactly as `npm start` runs it:
 * PGlite in a temporary data directory that survives restarts of this process. The process leads its
 * own process group, and every way boot() fails (early exit, not healthy in time, an error) kills
 * that group before it throws, so nothing is left running; so does halt(). Beside it, as `npm start`
 * does, the vendor simulator in its own process (and group) on its own port (env VENDOR_SIM=off, or a
 * stand-in process given by `nodeArgs`: none).
 */
export class GatewayProcess {
  private child: ChildProcess | null = null;
  private sim: ChildProcess | null = null;
  private output = '';
  readonly dataDir: string;
  simPort = 0;
  private readonly simSecret = randomBytes(32).toString('hex');
  constructor(
    readonly port: number,
    private readonly env: Record<string, string> = {},
    private readonly options: GatewayProcessOptions = {},
  ) {
    this.dataDir = mkdtempSync(path.join(tmpdir(), 'portal-e2e-'));
    // Migrate once, then copy (tests/global-setup.ts): a gateway on PGlite starts from the run's migrated
    // dump unpacked into its data directory, instead of running initdb and every migration itself. It
    // still runs migrate() at start (nothing left to apply) and seeds its demo data as on any first start.
    // A gateway that seeds the demo as the run's seeded dumps hold it (SEED=demo under NODE_ENV=test, the
    // full or the small catalogue) starts from that dump instead: its own seed then finds the merchants
    // and leaves them as they are.
    if (!env.DATABASE_URL && !env.DATA_DIR) {
      const setting = (key: string, otherwise: string) => env[key] ?? process.env[key] ?? otherwise;
      const seedsDemo = setting('SEED', 'demo') === 'demo' && env.NODE_ENV === undefined;
      const seededDump = setting('SEED_CATALOGUE', 'full') === 'full' ? PGLITE_FULL_SEEDED_DUMP_ENV : PGLITE_SEEDED_DUMP_ENV;
      const dump = (seedsDemo ? process.env[seededDump] : undefined) ?? process.env[PGLITE_DUMP_ENV];
      if (dump) execFileSync('tar', ['-xf', dump, '-C', this.dataDir], { stdio: 'ignore' });
    }
  }

  get simUrl() {
    return `http://127.0.0.1:${this.simPort}`;
  }

  private async bootSim(): Promise<Record<string, string>> {
    if (this.env.VENDOR_SIM === 'off' || this.options.nodeArgs) return {};
    if (!this.simPort) this.simPort = await freePort();
    if (!this.sim || this.sim.exitCode !== null || this.sim.signalCode !== null) {
      const sim = spawn(process.execPath, ['--import', 'tsx', 'gateway/src/vendor-sim/main.ts'], {
        cwd: ROOT,
        env: { ...process.env, NODE_ENV: 'test', VENDOR_SIM_PORT: String(this.simPort), VENDOR_SIM_SECRET: this.simSecret, PORTAL_WALLET_URL: this.url, PORTAL_URL: this.url },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      this.sim = sim;
      if (sim.pid !== undefined) liveGroups.add(sim.pid);
      sim.once('exit', () => {
        if (sim.pid !== undefined) liveGroups.delete(sim.pid);
      });
      for (const s of [sim.stdout, sim.stderr]) s?.on('data', (d: Buffer) => (this.output += `[vendor-sim] ${d.toString()}`));
      const end = Date.now() + 30_000;
      try {
        for (;;) {
          if (sim.exitCode !== null || sim.signalCode !== null) throw new Error(`vendor simulator exited early:\n${this.output}`);
          try {
            if ((await fetch(`${this.simUrl}/healthz`)).ok) break;
          } catch {
            // not listening yet
          }
          if (Date.now() > end) throw new Error(`vendor simulator did not become healthy:\n${this.output}`);
          await new Promise((r) => setTimeout(r, 150));
        }
      } catch (err) {
        await this.haltSim();
        throw err;
      }
    }
    return { VENDOR_SIM_URL: this.simUrl, VENDOR_SIM_SECRET: this.simSecret };
  }

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The process id of the running gateway (its process group id too), null when none runs. */
  get pid(): number | null {
    return this.child && this.child.exitCode === null && this.child.signalCode === null ? (this.child.pid ?? null) : null;
  }

  static async start(env: Record<string, string> = {}, options: GatewayProcessOptions = {}): Promise<GatewayProcess> {
    if (!existsSync(path.join(ROOT, 'client/dist/index.html'))) {
      throw new Error('client/dist is missing: run `npm run build` before the end-to-end suite');
    }
    for (let attempt = 1; ; attempt++) {
      const g = new GatewayProcess(await freePort(), env, options);
      try {
        await g.boot();
        return g;
      } catch (err) {
        await g.haltSim().catch(() => undefined);
        rmSync(g.dataDir, { recursive: true, force: true });
        // Another process took the port between freePort and the child's bind: once more on another.
        if (!(err instanceof PortTakenError) || attempt >= 3) throw err;
      }
    }
  }

  async boot(): Promise<void> {
    const simEnv = await this.bootSim();
    const child = spawn(process.execPath, [...(this.options.nodeArgs ?? ['--import', 'tsx', 'gateway/src/main.ts'])], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        PORT: String(this.port),
        HOST: '127.0.0.1',
        DATA_DIR: this.dataDir,
        LOG_LEVEL: 'warn',
        DATABASE_URL: '',
        REDIS_URL: '',
        ...simEnv,
        ...this.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group: halt() and a failed boot() end it with everything it started.
      detached: true,
    });
    this.child = child;
    if (child.pid !== undefined) liveGroups.add(child.pid);
    child.once('exit', () => {
      if (child.pid !== undefined) liveGroups.delete(child.pid);
    });
    for (const s of [child.stdout, child.stderr]) s?.on('data', (d: Buffer) => (this.output += d.toString()));
    try {
      await this.waitHealthy(child);
    } catch (err) {
      await this.halt('SIGKILL');
      throw err;
    }
  }

  private async waitHealthy(child: ChildProcess): Promise<void> {
    const end = Date.now() + (this.options.bootTimeoutMs ?? 60_000);
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`gateway exited early:\n${this.output}`);
      // The answer must be this child's: its node id (`node-<pid>` unless the test names one). Another
      // process that holds the port (another file's server, offered the same free port) answers too, and
      // this child then exits on EADDRINUSE.
      let node: unknown;
      try {
        const r = await fetch(`${this.url}/healthz`);
        // A server without a node id in its answer (a vendor simulator) is someone else too: null.
        if (r.ok) node = ((await r.json().catch(() => null)) as { value?: { node?: unknown } } | null)?.value?.node ?? null;
      } catch {
        // not listening yet
      }
      if (node !== undefined) {
        if (node === (this.env.NODE_ID ?? process.env.NODE_ID ?? `node-${child.pid}`)) return;
        throw new PortTakenError(`another process (node ${JSON.stringify(node)}) answers on port ${this.port}:\n${this.output}`);
      }
      if (Date.now() > end) throw new Error(`gateway did not become healthy:\n${this.output}`);
      await new Promise((r) => setTimeout(r, 150));
    }
  }

  /** Stop the process group (`signal`, then SIGKILL after 8 s) and keep the data directory. */
  async halt(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const c = this.child;
    if (!c || c.pid === undefined) return;
    const pid = c.pid;
    if (c.exitCode === null && c.signalCode === null) {
      const exited = new Promise((r) => c.once('exit', r));
      if (!killGroup(pid, signal)) c.kill(signal);
      const t = setTimeout(() => killGroup(pid, 'SIGKILL'), 8000);
      await exited;
      clearTimeout(t);
    }
    // Whatever the gateway started and left behind in its group goes with it.
    killGroup(pid, 'SIGKILL');
    liveGroups.delete(pid);
  }

  /** Stop the vendor simulator's process group (the portal stays up). */
  async haltSim(): Promise<void> {
    const c = this.sim;
    if (!c || c.pid === undefined) return;
    const pid = c.pid;
    if (c.exitCode === null && c.signalCode === null) {
      const exited = new Promise((r) => c.once('exit', r));
      if (!killGroup(pid, 'SIGTERM')) c.kill('SIGTERM');
      const t = setTimeout(() => killGroup(pid, 'SIGKILL'), 8000);
      await exited;
      clearTimeout(t);
    }
    killGroup(pid, 'SIGKILL');
    liveGroups.delete(pid);
  }

  async restart(): Promise<void> {
    await this.halt();
    await this.boot();
  }

  async stop(): Promise<void> {
    await this.halt();
    await this.haltSim();
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  logs() {
    return this.output;
  }

  async post<T = unknown>(p: string, body: unknown): Promise<T> {
    const r = await fetch(this.url + p, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const json = (await r.json()) as { success: boolean; value?: T; message?: string };
    if (!json.success) throw new Error(`${p}: ${json.message}`);
    return json.value as T;
  }
}
