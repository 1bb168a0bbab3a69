import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPgliteDb, pgliteOf, type Db } from '../db/db.ts';
import { migrate } from '../db/migrate.ts';
import { PGLITE_DUMP_ENV, PGLITE_SEEDED_DUMP_ENV } from './dump-env.ts';

/**
 * Migrate once, then copy: a test portal on PGlite starts from a dump of a freshly migrated database
 * (PGlite's dumpDataDir / loadDataDir) instead of running initdb and every migration again (about 3 s
 * of each portal's start). Each portal still gets its own database: the dump is loaded into a new
 * in-memory instance, nothing is shared.
 *
 * The dump is a file named by a hash of what makes it (the migrations, migrate.ts, PGlite's version),
 * so a changed migration makes a new one. The unit suite's globalSetup (tests/global-setup.ts) makes
 * it once per run and passes its path in PORTAL_TEST_PGLITE_DUMP; without that (another runner), the
 * first portal of each test file makes it in memory.
 */
export { PGLITE_DUMP_ENV, PGLITE_FULL_SEEDED_DUMP_ENV, PGLITE_SEEDED_DUMP_ENV } from './dump-env.ts';

const DB_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'db');

async function snapshotKey(): Promise<string> {
  const h = createHash('sha256');
  const migrations = path.join(DB_DIR, 'migrations');
  for (const f of (await readdir(migrations)).sort()) {
    h.update(f).update('\0').update(await readFile(path.join(migrations, f))).update('\0');
  }
  h.update(await readFile(path.join(DB_DIR, 'migrate.ts')));
  // PGlite's version (its package.json is not exported: look for it in node_modules up the tree).
  for (let dir = DB_DIR; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const pkg = path.join(dir, 'node_modules', '@electric-sql', 'pglite', 'package.json');
    if (existsSync(pkg)) {
      h.update(JSON.parse(await readFile(pkg, 'utf8')).version ?? '');
      break;
    }
  }
  return h.digest('hex').slice(0, 16);
}

/** Checkpoint and dump a Db made by createPgliteDb (uncompressed tar), then close it. */
async function dumpAndClose(db: Db): Promise<Blob> {
  try {
    const pg = pgliteOf(db)!;
    await pg.query('CHECKPOINT');
    return await pg.dumpDataDir('none');
  } finally {
    await db.close();
  }
}

/** A new PGlite, migrated by the gateway's own migrate(), dumped (uncompressed tar). */
export async function buildMigratedDump(): Promise<Blob> {
  const db = await createPgliteDb(null);
  await migrate(db).catch(async (err) => {
    await db.close();
    throw err;
  });
  return dumpAndClose(db);
}

/**
 * The dump file for the current migrations, made when missing (written under a temporary name and
 * renamed, so concurrent makers never expose half a file). Returns its path.
 */
export async function ensureMigratedDumpFile(dir = path.join(tmpdir(), 'portal-test-pglite')): Promise<string> {
  const file = path.join(dir, `migrated-${await snapshotKey()}.tar`);
  if (existsSync(file)) {
    // Marks it as in use, so another schema's run does not clear it away (below).
    const now = new Date();
    await utimes(file, now, now).catch(() => undefined);
    return file;
  }
  await mkdir(dir, { recursive: true });
  const dump = await buildMigratedDump();
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(tmp, Buffer.from(await dump.arrayBuffer()));
  await rename(tmp, file);
  // Dumps of other schemas (about 45 MB each) not used for a day go.
  for (const f of await readdir(dir)) {
    const other = path.join(dir, f);
    if (other === file || !f.startsWith('migrated-')) continue;
    const st = await stat(other).catch(() => null);
    if (st && Date.now() - st.mtimeMs > 86_400_000) await rm(other, { force: true });
  }
  return file;
}

/** A dump read (or built) once per test process; a failure is not kept, the next call tries again. */
function oncePerProcess(load: () => Promise<Blob>): () => Promise<Blob> {
  let p: Promise<Blob> | null = null;
  return () => {
    p ??= load();
    p.catch(() => (p = null));
    return p;
  };
}

const migratedDump = oncePerProcess(async () => {
  const file = process.env[PGLITE_DUMP_ENV];
  return file ? new Blob([await readFile(file)]) : buildMigratedDump();
});

/** A new in-memory PGlite database, already migrated (its own copy of the migrated dump). */
export async function migratedPgliteDb(): Promise<Db> {
  return createPgliteDb(null, { loadDataDir: await migratedDump() });
}

/**
 * The migrated dump with the test portal's demo seed written in, dumped again (see PGLITE_SEEDED_DUMP_ENV;
 * with `catalogue` 'full', PGLITE_FULL_SEEDED_DUMP_ENV).
 */
export async function buildSeededDump(migratedFile: string, catalogue: 'small' | 'full' = 'small'): Promise<Blob> {
  const { seedDemoData } = await import('../app/create-app.ts');
  const db = await createPgliteDb(null, { loadDataDir: new Blob([await readFile(migratedFile)]) });
  await seedDemoData(db, { SEED_CATALOGUE: catalogue, NODE_ENV: 'test' }).catch(async (err) => {
    await db.close();
    throw err;
  });
  return dumpAndClose(db);
}

/** Made by the global setup for this run only (a unique name); returns its path and a remover. */
export async function writeSeededDumpFile(
  migratedFile: string, dir = path.join(tmpdir(), 'portal-test-pglite'), catalogue: 'small' | 'full' = 'small',
): Promise<{ file: string; remove(): Promise<void> }> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `seeded-${catalogue}-${process.pid}-${randomBytes(4).toString('hex')}.tar`);
  await writeFile(file, Buffer.from(await (await buildSeededDump(migratedFile, catalogue)).arrayBuffer()));
  return { file, remove: () => rm(file, { force: true }) };
}

const seededDump = oncePerProcess(async () => new Blob([await readFile(process.env[PGLITE_SEEDED_DUMP_ENV]!)]));

/**
 * A new in-memory PGlite already migrated and holding the test portal's demo seed, when this run made
 * the seeded dump (PORTAL_TEST_PGLITE_SEEDED_DUMP); otherwise only migrated (the portal then seeds itself).
 */
export async function seededPgliteDb(): Promise<Db> {
  if (!process.env[PGLITE_SEEDED_DUMP_ENV]) return migratedPgliteDb();
  return createPgliteDb(null, { loadDataDir: await seededDump() });
}
