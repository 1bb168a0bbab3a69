import { defineConfig } from 'vitest/config';

/**
 * Gateway suites against real PostgreSQL (DATABASE_URL) and Redis (REDIS_URL): the services-only
 * tests, and every gateway integration test again with TEST_ON_SERVICES=1 (each portal on a fresh database).
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
    fileParallelism: false,
  },
});
