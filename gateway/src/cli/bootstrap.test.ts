import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '@portal/contracts/domain/constants';
import { loadConfig } from '../app/config.ts';
import { createPortal, type Portal } from '../app/create-app.ts';
import { createPgDb, createPgliteDb, type Db } from '../db/db.ts';
import { migrate } from '../db/migrate.ts';
import type { CommandIo } from './cli-db.ts';
import { freshDatabase, requireEnv } from '../testing/fresh-database.ts';
import { api } from '../testing/test-portal.ts';
import { runCreateMerchant } from './merchant-create.ts';
import { runCreateOperator } from './operator-create.ts';
import { enrolOperatorTotp } from '../testing/ops-totp.ts';

/**
 * Finding 2 of issue 10: production must never hold an account with a known password. A production
 * deployment starts empty; the merchant and its first operator come from one-time commands, and the
 * operator's password must be changed before the back office does anything else.
 */

let fresh: { drop(): Promise<void> } | undefined;

describe('production refuses the demo seed', () => {
  it('refuses SEED=demo at start, and defaults to no seed in production only', async () => {
    expect(() => loadConfig({ NODE_ENV: 'production', SEED: 'demo' })).toThrow(/SEED=demo is refused in production/);
    expect(loadConfig({ NODE_ENV: 'production' }).SEED).toBe('none');
    expect(loadConfig({}).SEED).toBe('demo');
    expect(loadConfig({ NODE_ENV: 'test' }).SEED).toBe('demo');
    // a config built by hand does not slip past: createPortal checks again, before opening anything
    const handMade = { ...loadConfig({ NODE_ENV: 'production', DATA_DIR: ':memory:' }), SEED: 'demo' as const };
    await expect(createPortal(handMade)).rejects.toThrow(/SEED=demo is refused in production/);
  });

  it('the server process exits with that sentence instead of starting', async () => {
    const main = fileURLToPath(new URL('../main.ts', import.meta.url));
    const r = spawnSync(process.execPath, ['--import', 'tsx', main], {
      env: { ...process.env, NODE_ENV: 'production', SEED: 'demo', DATA_DIR: ':memory:', PORT: '0', DATABASE_URL: '', REDIS_URL: '' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('portal: not starting. SEED=demo is refused in production');
  }, 70_000);
});

describe('bootstrap of a production deployment', () => {
  // The commands and then a production portal on the same database, as a deployment runs them.
  let db: Db;
  let portal: Portal;
  let url: string;
  let otp: string;
  const lines: string[] = [];

  beforeAll(async () => {
    db = process.env.TEST_ON_SERVICES === '1' ? createPgDb((fresh = await freshDatabase(requireEnv('DATABASE_URL'))).url, 2) : await createPgliteDb(null);
    await migrate(db);
    const env = { NODE_ENV: 'production', LOG_LEVEL: 'silent', DATA_DIR: ':memory:', PORT: '0' };
    const io = { env, db, print: (l: string) => lines.push(l) };
    await runCreateMerchant(['--code', 'ACME', '--name', 'Acme Play', '--domain', 'play.acme.example', '--domain', 'www.acme.example'], io);
    otp = (await runCreateOperator(['--merchant', 'ACME', '--username', 'root_admin'], io)).password;
    portal = await createPortal(loadConfig(env), { db });
    url = `http://127.0.0.1:${await portal.listen(0, '127.0.0.1')}`;
  }, 60_000);
  afterAll(async () => {
    await portal?.stop();
    await db?.close();
    await fresh?.drop();
  });

  it('creates no account with the published password', async () => {
    expect(portal.config.isProduction).toBe(true);
    const members = await portal.db.query<{ account: string }>('SELECT account FROM members');
    expect(members.rows).toEqual([]);
    const ops = await portal.db.query<{ username: string }>('SELECT username FROM operators ORDER BY id');
    expect(ops.rows.map((r) => r.username)).toEqual(['root_admin']);
    const known = await api(url, '/ops/api/session/login', { body: { username: 'ops01', password: LIMITS.DEFAULT_PASSWORD } });
    expect(known.status).toBe(401);
    expect(known.json).toMatchObject({ success: false, code: 'INVALID_CREDENTIALS' });
  });

  it('the merchant answers on its domains and builds links from its main domain', async () => {
    const m = await portal.merchants.resolve({ host: 'www.acme.example' });
    expect(m).toMatchObject({ code: 'ACME', isDefault: true, mainDomain: 'play.acme.example', domains: ['play.acme.example', 'www.acme.example'], currency: 'PHP' });
    expect(m!.brand.siteName).toBe('Acme Play');
  });

  it('prints a one-time password that must be changed before anything else', async () => {
    expect(otp).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(lines).toContain(`one-time password: ${otp}`);
    const login = await api<{ token: string; mustChangePassword: boolean; roles: string[] }>(url, '/ops/api/session/login', { body: { username: 'root_admin', password: otp } });
    expect(login.status).toBe(200);
    expect(login.json!.value).toMatchObject({ mustChangePassword: true, roles: ['administrator'], totpEnrolled: false });
    const token = login.json!.value!.token;
    const blocked = await api(url, '/ops/api/deposits', { token });
    expect(blocked.status).toBe(403);
    expect(blocked.json).toMatchObject({ success: false, code: 'PASSWORD_CHANGE_REQUIRED' });
    const changed = await api(url, '/ops/api/session/password', { token, body: { oldPassword: otp, newPassword: 'Acme2026secure', confirmNewPassword: 'Acme2026secure' } });
    expect(changed.status).toBe(200);
    expect((await api(url, '/ops/api/deposits', { token })).json).toMatchObject({ code: 'TOTP_ENROLMENT_REQUIRED' });
    await enrolOperatorTotp(url, token);
    expect((await api(url, '/ops/api/deposits', { token })).status).toBe(200);
    const audit = await api<{ list: Array<{ action: string }> }>(url, '/ops/api/audit', { token });
    expect(audit.json!.value!.list.map((e) => e.action)).toEqual(expect.arrayContaining(['operator.create', 'operator.login', 'operator.password', 'operator.totp_enrol']));
    // the one-time password is spent
    expect((await api(url, '/ops/api/session/login', { body: { username: 'root_admin', password: otp } })).status).toBe(401);
  });
});

describe('the bootstrap commands refuse what they must not do', () => {
  // The commands on one open database (what they do with the server's own is shown above).
  let db: Db;
  let io: CommandIo;
  beforeAll(async () => {
    db = await createPgliteDb(null);
    await migrate(db);
    io = { env: { NODE_ENV: 'production' }, print: () => undefined, db };
    await runCreateMerchant(['--code', 'BETA', '--name', 'Beta', '--domain', 'beta.example'], io);
  }, 60_000);
  afterAll(async () => {
    await db?.close();
  });

  it('a second operator needs --additional; a taken name, an unknown merchant and a weak chosen password are refused', async () => {
    await runCreateOperator(['--merchant', 'BETA', '--username', 'first_admin'], io);
    await expect(runCreateOperator(['--merchant', 'BETA', '--username', 'second'], io)).rejects.toThrow(/already has operators \(first_admin\).*--additional/);
    await expect(runCreateOperator(['--merchant', 'BETA', '--username', 'first_admin', '--additional'], io)).rejects.toThrow(/already exists/);
    await expect(runCreateOperator(['--merchant', 'NOPE', '--username', 'x_admin'], io)).rejects.toThrow(/does not exist/);
    const stdin = (s: string) => async () => s;
    await expect(runCreateOperator(['--merchant', 'BETA', '--username', 'cash1', '--additional', '--password-stdin'], { ...io, readStdin: stdin(`${LIMITS.DEFAULT_PASSWORD}\n`) })).rejects.toThrow(/password/);
    await expect(runCreateOperator(['--merchant', 'BETA', '--username', 'cash1', '--additional', '--password-stdin'], { ...io, readStdin: stdin('short1\n') })).rejects.toThrow(/10 to 128/);
    const printed: string[] = [];
    const second = await runCreateOperator(['--merchant', 'BETA', '--username', 'cash1', '--role', 'finance', '--additional', '--password-stdin'], { ...io, print: (l) => printed.push(l), readStdin: stdin('Chosen2026pass\n') });
    expect(second.operator).toMatchObject({ roles: ['finance'], mustChangePassword: true });
    // a password read from stdin is never echoed
    expect(printed.join('\n')).not.toContain('Chosen2026pass');
  });

  it('refuses a taken code or domain and host names that are not host names', async () => {
    await expect(runCreateMerchant(['--code', 'BETA', '--name', 'B', '--domain', 'other.example'], io)).rejects.toThrow(/already exists/);
    await expect(runCreateMerchant(['--code', 'GAMMA', '--name', 'G', '--domain', 'BETA.example'], io)).rejects.toThrow(/already belongs to merchant BETA/);
    await expect(runCreateMerchant(['--code', 'GAMMA', '--name', 'G', '--domain', 'https://gamma.example'], io)).rejects.toThrow(/--domain/);
    await expect(runCreateMerchant(['--code', 'GAMMA', '--name', 'G', '--domain', 'gamma.example:8080'], io)).rejects.toThrow(/--domain/);
    await expect(runCreateMerchant(['--code', 'GAMMA', '--name', 'G', '--domain', 'gamma.example', '--main-domain', 'evil.example'], io)).rejects.toThrow(/--main-domain/);
    await expect(runCreateMerchant(['--code', 'GAMMA', '--name', 'G'], io)).rejects.toThrow(/usage/);
    const g = await runCreateMerchant(['--code', 'GAMMA', '--name', 'G', '--domain', 'gamma.example'], io);
    expect(g.isDefault).toBe(false);
  });

  it('--market, --currency and --min-age set the market; --platform makes the one platform administrator', async () => {
    await expect(runCreateMerchant(['--code', 'VN1', '--name', 'V', '--domain', 'v1.example', '--min-age', '12'], io)).rejects.toThrow(/minimum age/);
    await expect(runCreateMerchant(['--code', 'VN1', '--name', 'V', '--domain', 'v1.example', '--market', 'Vietnam'], io)).rejects.toThrow(/--market/);
    const v = await runCreateMerchant(['--code', 'VN1', '--name', 'V', '--domain', 'v1.example', '--market', 'vn', '--currency', 'VND', '--min-age', '18'], io);
    expect(v).toMatchObject({ market: 'VN', currency: 'VND' });
    const row = await db.query<{ market: string; brand: { minAge: number; currencySymbol: string } }>(`SELECT market, brand FROM merchants WHERE code = 'VN1'`);
    expect(row.rows[0]).toMatchObject({ market: 'VN', brand: { minAge: 18, currencySymbol: '₫' } });
    const p = await runCreateOperator(['--merchant', 'VN1', '--username', 'plat_admin', '--platform'], io);
    expect(p.operator.isPlatform).toBe(true);
    await expect(runCreateOperator(['--merchant', 'VN1', '--username', 'plat_two', '--platform', '--additional'], io)).rejects.toThrow(/platform administrator already exists \(plat_admin on merchant VN1\)/);
    const plain = await runCreateOperator(['--merchant', 'VN1', '--username', 'vn1_admin', '--additional'], io);
    expect(plain.operator.isPlatform).toBe(false);
  });
});
