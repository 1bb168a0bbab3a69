import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { assertFreshBuild } from '../bench/web.ts';

/** `npm run bench -- --web` measures client/dist: it must refuse a missing or stale build. */
describe('bench --web build check', () => {
  let root = '';
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const file = (rel: string, at: number) => {
    const p = path.join(root, rel);
    mkdirSync(path.dirname(p), { recursive: true });
    writeFileSync(p, 'x');
    utimesSync(p, at / 1000, at / 1000);
  };

  it('refuses when client/dist is missing, with what to run', () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'web-bench-'));
    file('client/src/main.tsx', Date.now());
    expect(() => assertFreshBuild(root)).toThrow(/no client build .*npm run build/);
  });

  it('refuses a build older than a client or contracts source, not older than a test', () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'web-bench-'));
    const t = Date.now() - 60_000;
    file('client/src/main.tsx', t);
    file('client/dist/index.html', t + 1000);
    file('client/dist/.vite/manifest.json', t + 1000);
    expect(() => assertFreshBuild(root)).not.toThrow();
    file('client/src/lib/api.test.ts', t + 5000);
    expect(() => assertFreshBuild(root)).not.toThrow();
    file('contracts/src/api/content.ts', t + 5000);
    expect(() => assertFreshBuild(root)).toThrow(/older than contracts\/src\/api\/content\.ts/);
    file('client/dist/.vite/manifest.json', t + 9000);
    expect(() => assertFreshBuild(root)).not.toThrow();
  });
});
