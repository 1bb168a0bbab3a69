import pg from 'pg';
import { randomBytes } from 'node:crypto';

/** A throwaway database on the server of DATABASE_URL, dropped by the returned function. */
export async function freshDatabase(baseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `portal_t_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(baseUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export function requireEnv(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} must be set for the services suites (see infra/README.md)`);
  return v;
}
