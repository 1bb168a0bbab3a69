/**
 * The names of the environment variables through which the global setup (tests/global-setup.ts) hands
 * its PGlite dump files to test portals (pglite-snapshot.ts) and to end-to-end gateway processes
 * (tests/e2e/support/gateway-process.ts). Kept apart from pglite-snapshot.ts so that a reader of the
 * names does not load PGlite and node-postgres with them.
 */

/** The migrated dump (see pglite-snapshot.ts ensureMigratedDumpFile). */
export const PGLITE_DUMP_ENV = 'PORTAL_TEST_PGLITE_DUMP';
/**
 * The same, with the demo data a test portal writes at start (SEED=demo, small catalogue, NODE_ENV=test:
 * create-app.ts seedDemoData): made once per run by the global setup (never kept across runs: the demo
 * writes times relative to now and its code is not in the dump's key), loaded by every test portal that
 * would seed exactly that. The portal's own seed then finds the merchant and leaves it as it is.
 */
export const PGLITE_SEEDED_DUMP_ENV = 'PORTAL_TEST_PGLITE_SEEDED_DUMP';
/**
 * The same with the full catalogue (about 10,500 games: SEED_CATALOGUE=full, the default of a gateway
 * started as `npm start` starts it): made by the global setup of the end-to-end suite only, whose gateway
 * processes start from it (tests/e2e/support/gateway-process.ts) instead of each seeding the catalogue.
 */
export const PGLITE_FULL_SEEDED_DUMP_ENV = 'PORTAL_TEST_PGLITE_FULL_SEEDED_DUMP';
