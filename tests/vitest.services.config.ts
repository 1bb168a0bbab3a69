import { defineConfig } from 'vitest/config';

/** Gateway suites against real PostgreSQL (DATABASE_URL) and Redis (REDIS_URL). */
export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['gateway/**/*.services.test.ts', 'tests/services/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
