import { defineConfig } from 'vitest/config';

/**
 * Gateway suites against real PostgreSQL (DATABASE_URL) and Redis (REDIS_URL): the services-only
 * tests, and every gateway integration test again with TEST_ON_SERVICES=1 (each portal on a fresh database,
 * a copy of a template migrated once per run: tests/global-setup.ts).
 */
export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['gateway/**/*.test.ts', 'tests/services/**/*.test.ts'],
    env: { TEST_ON_SERVICES: '1' },
    environment: 'node',
    // Migrate once per run (a template database, a PGlite dump); every test portal starts from a copy.
    globalSetup: ['tests/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two files at a time, as the unit suite: each portal has its own database (a copy of the migrated
    // template) and its own Redis stream names (BUS_STREAM per portal), so files cannot see each other.
    maxWorkers: 2,
    // Files share their worker's module cache instead of importing the gateway again each (import time
    // 70 s -> 7 s summed, the suite 188 s -> 127 s here). So state kept at module level must be keyed by
    // the instance it belongs to (a Db, an app), never only by a merchant code: several test portals, each
    // with its own database, live in one process (cashier/settings.ts ensureChannels was such a case).
    isolate: false,
  },
});
