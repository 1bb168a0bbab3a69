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
    // Two files at a time: each boots its own gateway (own port, own PGlite directory) and Chromium;
    // much of a browser test is waiting, so two share CI's 2 cores.
    fileParallelism: true,
    maxWorkers: 2,
    // expect.poll waits for what a browser shows (a socket connected, a live update): 1 s, vitest's
    // default, is too short on a loaded CI machine with two files running.
    expect: { poll: { timeout: 15_000, interval: 100 } },
    setupFiles: ['tests/e2e/support/csp-guard.ts'],
    // Migrate once per run: each gateway's PGlite data directory starts from the migrated dump.
    globalSetup: ['tests/global-setup.ts'],
  },
});
