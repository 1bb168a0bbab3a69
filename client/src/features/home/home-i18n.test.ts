import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GAME_TYPES } from '@portal/contracts/domain/constants';
import en from '../../i18n/locales/en/home.json';
import ty from '../../i18n/locales/ty/home.json';
import { flattenKeys } from '../../i18n/resources';

const here = import.meta.dirname;

/** Source files of this feature, without tests. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

describe('home translations', () => {
  const enKeys = flattenKeys(en);
  const tyKeys = flattenKeys(ty);

  it('has every key in both EN and TY, none empty', () => {
    expect([...tyKeys.keys()].sort()).toEqual([...enKeys.keys()].sort());
    for (const [k, v] of [...enKeys, ...tyKeys]) expect(typeof v === 'string' && v.trim() !== '', k).toBe(true);
  });

  it('has every literal key the home components use', () => {
    const used = new Set<string>();
    for (const file of sources(here)) {
      for (const m of readFileSync(file, 'utf8').matchAll(/\bt\('([^'`$]+)'/g)) if (m[1]) used.add(m[1]);
    }
    expect(used.size).toBeGreaterThan(10);
    for (const key of used) expect(enKeys.has(key), key).toBe(true);
  });

  it('has the keys built at run time', () => {
    for (const type of GAME_TYPES) expect(enKeys.has(`gameType.${type}`), type).toBe(true);
    for (const b of ['games', 'slots', 'service', 'licences']) {
      for (const f of ['figure', 'title', 'text']) expect(enKeys.has(`descriptions.${b}.${f}`)).toBe(true);
    }
    for (const r of ['MOBILECONFIG', 'IOS', 'ANDROID']) expect(enKeys.has(`download.${r}.name`)).toBe(true);
  });
});
