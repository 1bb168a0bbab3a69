import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';

/**
 * `npm start`: the portal and, outside production, the vendor simulator as a second process on its
 * own port (VENDOR_SIM_PORT, default 8090) with a master secret made for this run (or
 * VENDOR_SIM_SECRET). The portal gets VENDOR_SIM_URL and the secret and connects the catalogue's
 * slot, fish, live and PVP vendors to the simulator, each with its own derived secret in
 * vendor_accounts. Production starts the portal alone: the simulator runs there only when
 * VENDOR_SIM_URL and VENDOR_SIM_SECRET are both set (and the simulator is started separately).
 */
const env = { ...process.env };
const production = env.NODE_ENV === 'production';
const children: ChildProcess[] = [];
const run = (file: string, extra: Record<string, string>) => {
  const c = spawn(process.execPath, ['--import', 'tsx', file], { stdio: 'inherit', env: { ...env, ...extra } });
  children.push(c);
  c.on('exit', (code, signal) => {
    // One gone, the other goes too: a portal whose games cannot open, or a simulator without its portal, is not a start.
    for (const o of children) if (o !== c && o.exitCode === null) o.kill('SIGTERM');
    if (children.every((o) => o.exitCode !== null || o === c)) process.exit(code ?? (signal ? 1 : 0));
  });
  return c;
};

const simEnv: Record<string, string> = {};
if (!production && env.VENDOR_SIM !== 'off') {
  const port = Number(env.PORT || 8080);
  const simPort = Number(env.VENDOR_SIM_PORT || 8090);
  const secret = env.VENDOR_SIM_SECRET || randomBytes(32).toString('hex');
  simEnv.VENDOR_SIM_SECRET = secret;
  simEnv.VENDOR_SIM_URL = env.VENDOR_SIM_URL || `http://localhost:${simPort}`;
  run('gateway/src/vendor-sim/main.ts', {
    VENDOR_SIM_PORT: String(simPort), VENDOR_SIM_SECRET: secret, VENDOR_SIM_HOST: env.VENDOR_SIM_HOST || '127.0.0.1',
    PORTAL_WALLET_URL: `http://127.0.0.1:${port}`, PORTAL_URL: env.PORTAL_URL || `http://localhost:${port}`,
  });
}
run('gateway/src/main.ts', simEnv);
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => { for (const c of children) if (c.exitCode === null) c.kill(sig); });
