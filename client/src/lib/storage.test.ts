import { afterEach, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readStorage, writeStorage } from './storage';
import { storedLanguage } from '../i18n/languages';

/** A window whose storage getters throw, as a browser with storage blocked (or a sandboxed frame) has. */
function blockedWindow() {
  const w = {};
  for (const k of ['localStorage', 'sessionStorage']) {
    Object.defineProperty(w, k, { get() { throw new Error(`SecurityError: Failed to read the '${k}' property from 'Window': Access is denied for this document.`); } });
  }
  (globalThis as { window?: unknown }).window = w;
}

afterEach(() => {
  delete (globalThis as { window?: unknown }).window;
});

describe('browser storage blocked', () => {
  it('reads nothing and writes nowhere, never throwing', () => {
    blockedWindow();
    expect(readStorage('local', 'lang')).toBeNull();
    expect(readStorage('session', 'x')).toBeNull();
    expect(() => writeStorage('local', 'theme', 'light')).not.toThrow();
    expect(() => writeStorage('session', 'x', null)).not.toThrow();
    expect(storedLanguage()).toBeNull();
  });

  it('no client code reads window storage except through lib/storage.ts (one guarded clear on logout)', () => {
    const root = join(__dirname, '..');
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !path.endsWith(join('lib', 'storage.ts'))) {
          const code = readFileSync(path, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
          if (/\b(localStorage|sessionStorage)\s*\./.test(code) && !/try\s*\{\s*window\.sessionStorage\.clear\(\);\s*\}\s*catch/.test(code)) offenders.push(path.slice(root.length + 1));
        }
      }
    };
    walk(root);
    expect(offenders).toEqual([]);
  });
});
