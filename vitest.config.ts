import { defineConfig } from 'vitest/config';

/**
 * `npm test`: unit tests and gateway integration on PGlite (no services needed).
 * Suites that need real PostgreSQL + Redis (`*.services.test.ts`) and Chromium (`tests/e2e`)
 * have their own configs under tests/, run by .ci/run.
 */
export default defineConfig({
  test: {
    include: ['contracts/**/*.test.ts', 'gateway/**/*.test.ts', 'client/**/*.test.{ts,tsx}', 'tests/unit/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/*.services.test.ts', 'tests/e2e/**'],
    environment: 'node',
    // Migrate once per run; every test portal starts from a copy (tests/global-setup.ts).
    globalSetup: ['tests/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: on CI's 2 cores that ran every file one
    // after another. Most files wait on an in-process PGlite or a socket, so two workers use both cores.
    maxWorkers: 2,
    // Files share their worker's module cache instead of importing the gateway again each (import time
    // 81 s -> 13 s summed, the suite 242 s -> 140 s here). So state kept at module level must be keyed by
    // the instance it belongs to (a Db, an app), never only by a merchant code: several test portals, each
    // with its own database, live in one process (cashier/settings.ts ensureChannels was such a case).
    isolate: false,
  },
});
