import { readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { GatewayProcess, freePort } from '../e2e/support/gateway-process.ts';

/** Running and not a zombie (a killed process waits for its parent or init to reap it). */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 200 && isRunning(pid); i++) await new Promise((r) => setTimeout(r, 25));
  return !isRunning(pid);
}

/**
 * A stand-in "gateway" that starts a grandchild, prints both process ids and never answers /healthz
 * (or exits at once): every failed boot must leave neither process running.
 */
const NEVER_HEALTHY = `
  const { spawn } = require('node:child_process');
  const g = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  console.log('pids ' + process.pid + ' ' + g.pid);
  setInterval(() => {}, 1000);
`;

describe('GatewayProcess', () => {
  it('a boot that times out kills the process and what it started, and says why', async () => {
    const g = new GatewayProcess(await freePort(), {}, { bootTimeoutMs: 1500, nodeArgs: ['-e', NEVER_HEALTHY] });
    try {
      await expect(g.boot()).rejects.toThrow(/did not become healthy/);
      const m = /pids (\d+) (\d+)/.exec(g.logs());
      expect(m).not.toBeNull();
      const [child, grandchild] = [Number(m![1]), Number(m![2])];
      expect([await gone(child), await gone(grandchild)]).toEqual([true, true]);
      expect(g.pid).toBeNull();
    } finally {
      rmSync(g.dataDir, { recursive: true, force: true });
    }
  });

  it('a process that exits during boot is reported with its output', async () => {
    const g = new GatewayProcess(await freePort(), {}, { nodeArgs: ['-e', 'console.error("no database"); process.exit(3)'] });
    try {
      await expect(g.boot()).rejects.toThrow(/exited early:\s+no database/);
      expect(g.pid).toBeNull();
    } finally {
      rmSync(g.dataDir, { recursive: true, force: true });
    }
  });

  it('a port on which another process answers is refused, not taken for the gateway', async () => {
    // Another server holds the port and answers /healthz as a gateway would, with its own node id.
    const other = createServer((_req, res) => res.end(JSON.stringify({ success: true, value: { status: 'ok', node: 'node-other' } })));
    const port = await freePort();
    await new Promise<void>((resolve) => other.listen(port, '127.0.0.1', resolve));
    const g = new GatewayProcess(port, {}, { nodeArgs: ['-e', NEVER_HEALTHY] });
    try {
      await expect(g.boot()).rejects.toThrow(/another process \(node "node-other"\) answers on port/);
      expect(g.pid).toBeNull();
    } finally {
      rmSync(g.dataDir, { recursive: true, force: true });
      await new Promise((r) => other.close(r));
    }
  });
});
