import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { createPgDb } from '../db/db.ts';
import { migrate } from '../db/migrate.ts';

/**
 * Name of a migrated template database on the server of DATABASE_URL, made once per services run by
 * tests/global-setup.ts (createMigratedTemplate): `freshDatabase(url, { migrated: true })` copies it
 * (CREATE DATABASE ... TEMPLATE) instead of running every migration on each test portal's database.
 */
export const PG_TEMPLATE_ENV = 'PORTAL_TEST_PG_TEMPLATE';
/** The migrated template with the test portal's demo seed written in (create-app.ts seedDemoData), made once per run. */
export const PG_SEEDED_TEMPLATE_ENV = 'PORTAL_TEST_PG_SEEDED_TEMPLATE';

function withDatabase(baseUrl: string, name: string): string {
  const u = new URL(baseUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

async function adminQuery(baseUrl: string, sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: baseUrl });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/**
 * A throwaway database on the server of DATABASE_URL, dropped by the returned function. Empty, unless
 * `migrated` is asked and the run made a migrated template (PORTAL_TEST_PG_TEMPLATE): then a copy of it,
 * its own database all the same.
 */
export async function freshDatabase(baseUrl: string, opts: { migrated?: boolean; seeded?: boolean } = {}): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `portal_t_${randomBytes(5).toString('hex')}`;
  // Seeded (when the run made that template) implies migrated; otherwise the migrated one.
  const template = (opts.seeded ? process.env[PG_SEEDED_TEMPLATE_ENV] : undefined) ?? (opts.migrated || opts.seeded ? process.env[PG_TEMPLATE_ENV] : undefined);
  if (template && !/^portal_tmpl_[0-9a-f]+$/.test(template)) throw new Error(`${PG_TEMPLATE_ENV}: unexpected name ${template}`);
  for (let attempt = 0; ; attempt++) {
    try {
      await adminQuery(baseUrl, template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
      break;
    } catch (err) {
      // Copying a template needs it to have no session; none is opened after it is made, but retry a
      // few times rather than fail on a transient one.
      if (!template || attempt >= 20 || !/being accessed by other users/.test(String((err as Error).message))) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    url: withDatabase(baseUrl, name),
    drop: () => adminQuery(baseUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/** A database migrated by the gateway's migrate(), to be copied by freshDatabase; returns its name and a drop. */
export async function createMigratedTemplate(baseUrl: string): Promise<{ name: string; drop(): Promise<void> }> {
  const name = `portal_tmpl_${randomBytes(5).toString('hex')}`;
  await adminQuery(baseUrl, `CREATE DATABASE ${name}`);
  const db = createPgDb(withDatabase(baseUrl, name), 1);
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
  return { name, drop: () => adminQuery(baseUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** A copy of the migrated template with the test portal's demo seed written in (PG_SEEDED_TEMPLATE_ENV). */
export async function createSeededTemplate(baseUrl: string, migratedTemplate: string): Promise<{ name: string; drop(): Promise<void> }> {
  const { seedDemoData } = await import('../app/create-app.ts');
  const name = `portal_tmpl_${randomBytes(5).toString('hex')}`;
  await adminQuery(baseUrl, `CREATE DATABASE ${name} TEMPLATE ${migratedTemplate}`);
  const db = createPgDb(withDatabase(baseUrl, name), 1);
  try {
    await seedDemoData(db, { SEED_CATALOGUE: 'small', NODE_ENV: 'test' });
  } finally {
    await db.close();
  }
  return { name, drop: () => adminQuery(baseUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

export function requireEnv(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} must be set for the services suites (see infra/README.md)`);
  return v;
}
