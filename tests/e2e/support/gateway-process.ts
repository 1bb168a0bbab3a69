import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}

/**
 * The real gateway as its own process, serving the built client, exactly as `npm start` runs it:
 * PGlite in a temporary data directory that survives restarts of this process; beside it, as
 * `npm start` does, the vendor simulator in its own process on its own port (env VENDOR_SIM=off: none).
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
  ) {
    this.dataDir = mkdtempSync(path.join(tmpdir(), 'portal-e2e-'));
  }

  get simUrl() {
    return `http://127.0.0.1:${this.simPort}`;
  }

  private async bootSim(): Promise<Record<string, string>> {
    if (this.env.VENDOR_SIM === 'off') return {};
    if (!this.simPort) this.simPort = await freePort();
    if (!this.sim || this.sim.exitCode !== null) {
      this.sim = spawn(process.execPath, ['--import', 'tsx', 'gateway/src/vendor-sim/main.ts'], {
        cwd: ROOT,
        env: { ...process.env, NODE_ENV: 'test', VENDOR_SIM_PORT: String(this.simPort), VENDOR_SIM_SECRET: this.simSecret, PORTAL_WALLET_URL: this.url, PORTAL_URL: this.url },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const sim = this.sim;
      for (const s of [sim.stdout, sim.stderr]) s?.on('data', (d: Buffer) => (this.output += `[vendor-sim] ${d.toString()}`));
      const end = Date.now() + 30_000;
      for (;;) {
        if (sim.exitCode !== null) throw new Error(`vendor simulator exited early:\n${this.output}`);
        try {
          if ((await fetch(`${this.simUrl}/healthz`)).ok) break;
        } catch {
          // not listening yet
        }
        if (Date.now() > end) throw new Error(`vendor simulator did not become healthy:\n${this.output}`);
        await new Promise((r) => setTimeout(r, 150));
      }
    }
    return { VENDOR_SIM_URL: this.simUrl, VENDOR_SIM_SECRET: this.simSecret };
  }

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  static async start(env: Record<string, string> = {}): Promise<GatewayProcess> {
    if (!existsSync(path.join(ROOT, 'client/dist/index.html'))) {
      throw new Error('client/dist is missing: run `npm run build` before the end-to-end suite');
    }
    const g = new GatewayProcess(await freePort(), env);
    try {
      await g.boot();
    } catch (err) {
      // No process left behind when the start fails (the caller never gets `g` to stop).
      await g.stop().catch(() => undefined);
      throw err;
    }
    return g;
  }

  async boot(): Promise<void> {
    const simEnv = await this.bootSim();
    this.child = spawn(process.execPath, ['--import', 'tsx', 'gateway/src/main.ts'], {
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
    });
    for (const s of [this.child.stdout, this.child.stderr]) s?.on('data', (d: Buffer) => (this.output += d.toString()));
    const end = Date.now() + 60_000;
    for (;;) {
      if (this.child.exitCode !== null) throw new Error(`gateway exited early:\n${this.output}`);
      try {
        const r = await fetch(`${this.url}/healthz`);
        if (r.ok) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > end) throw new Error(`gateway did not become healthy:\n${this.output}`);
      await new Promise((r) => setTimeout(r, 150));
    }
  }

  /** Stop the vendor simulator process (the portal stays up). */
  async haltSim(): Promise<void> {
    const c = this.sim;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGTERM');
    await exited;
  }

  /** Stop the process (SIGTERM, then SIGKILL) and keep the data directory. */
  async halt(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const c = this.child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill(signal);
    const t = setTimeout(() => c.kill('SIGKILL'), 8000);
    await exited;
    clearTimeout(t);
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
