import type { TestProject } from 'vitest/node';
import { createMigratedTemplate, createSeededTemplate, PG_SEEDED_TEMPLATE_ENV, PG_TEMPLATE_ENV } from '../gateway/src/testing/fresh-database.ts';
import { ensureMigratedDumpFile, PGLITE_DUMP_ENV, PGLITE_FULL_SEEDED_DUMP_ENV, PGLITE_SEEDED_DUMP_ENV, writeSeededDumpFile } from '../gateway/src/testing/pglite-snapshot.ts';

/**
 * Once per vitest run, before any test file (vitest.config.ts and tests/vitest.services.config.ts):
 * migrate once, then every test portal starts from a copy (gateway/src/testing/pglite-snapshot.ts,
 * fresh-database.ts). The paths and names reach the test workers through the environment.
 * - PGlite: the migrated dump file (kept in the system's temporary directory, named by a hash of the
 *   migrations, so an unchanged schema is not migrated again on the next run).
 * - PostgreSQL (services suite: TEST_ON_SERVICES=1 and DATABASE_URL): a migrated template database,
 *   dropped at the end of the run.
 * Beside each, a copy holding the demo data a test portal writes at start (SEED=demo, small catalogue):
 * made for this run only (the demo writes times relative to now), removed at the end. A test portal that
 * would seed exactly that starts from it (about two thirds of a test portal's start was its seed).
 * - End-to-end suite only: the same with the full catalogue, which its gateway processes seed by default
 *   (tests/e2e/support/gateway-process.ts starts them from it: about 1.4 s of each start on a quiet machine).
 */
export default async function setup(project: TestProject) {
  process.env[PGLITE_DUMP_ENV] = await ensureMigratedDumpFile();
  const seededDump = await writeSeededDumpFile(process.env[PGLITE_DUMP_ENV]);
  process.env[PGLITE_SEEDED_DUMP_ENV] = seededDump.file;
  const e2e = project.config.include.some((glob) => glob.includes('tests/e2e'));
  const fullSeededDump = e2e ? await writeSeededDumpFile(process.env[PGLITE_DUMP_ENV], undefined, 'full') : null;
  if (fullSeededDump) process.env[PGLITE_FULL_SEEDED_DUMP_ENV] = fullSeededDump.file;
  let template: { name: string; drop(): Promise<void> } | null = null;
  let seededTemplate: { name: string; drop(): Promise<void> } | null = null;
  const onServices = (project.config.env?.TEST_ON_SERVICES ?? process.env.TEST_ON_SERVICES) === '1';
  if (onServices && process.env.DATABASE_URL) {
    template = await createMigratedTemplate(process.env.DATABASE_URL);
    process.env[PG_TEMPLATE_ENV] = template.name;
    seededTemplate = await createSeededTemplate(process.env.DATABASE_URL, template.name);
    process.env[PG_SEEDED_TEMPLATE_ENV] = seededTemplate.name;
  }
  return async () => {
    await seededTemplate?.drop();
    await template?.drop();
    await seededDump.remove();
    await fullSeededDump?.remove();
  };
}
