import { defineConfig } from 'vitest/config';

/** Playwright (playwright-core) in Debian's Chromium against a real gateway serving the built client. */
export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['tests/e2e/**/*.e2e.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    fileParallelism: false,
    setupFiles: ['tests/e2e/support/csp-guard.ts'],
    // Migrate once per run: each gateway's PGlite data directory starts from the migrated dump.
    globalSetup: ['tests/global-setup.ts'],
  },
});
