import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@portal/contracts/api/errors';
import { NAV_ITEMS, PAGE_KEYS } from '@portal/contracts/domain/constants';
import { CLIENT_ERROR_CODE } from '../lib/api';
import { buildResources, flattenKeys } from './resources';
import { SAME_IN_TY } from './same-in-ty';

/**
 * Translation completeness: every namespace has the same non-empty keys in EN and TY, and every
 * literal key used in the source exists in EN (keys are "extracted by tooling": this scan).
 */
const resources = buildResources(import.meta.glob<unknown>('./locales/*/*.json', { eager: true, import: 'default' }));
const sources = import.meta.glob<string>(['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}', '!../**/*.d.ts'], {
  eager: true,
  query: '?raw',
  import: 'default',
});

function keysOf(lang: string, ns: string): Map<string, unknown> {
  return flattenKeys(resources[lang]?.[ns] ?? {});
}

const isFilled = (v: unknown) => typeof v === 'string' && v.trim().length > 0;

/** Literal keys used with t(...) / i18nKey=..., with the namespace each resolves to. */
function extractKeys(source: string): { ns: string; key: string }[] {
  const defaultNs = /useTranslation\(\s*\[?\s*['"]([^'"]+)['"]/.exec(source)?.[1] ?? 'common';
  const found: { ns: string; key: string }[] = [];
  const patterns = [/(?<![\w$])t\(\s*(['"])([^'"\n]+)\1/g, /i18nKey=(['"])([^'"\n]+)\1/g];
  for (const re of patterns) {
    for (const m of source.matchAll(re)) {
      const raw = m[2] ?? '';
      const sep = raw.indexOf(':');
      found.push(sep > 0 ? { ns: raw.slice(0, sep), key: raw.slice(sep + 1) } : { ns: defaultNs, key: raw });
    }
  }
  return found;
}

function hasKey(keys: Map<string, unknown>, key: string): boolean {
  return isFilled(keys.get(key)) || isFilled(keys.get(`${key}_one`)) || isFilled(keys.get(`${key}_other`));
}

describe('locales', () => {
  const namespaces = [...new Set([...Object.keys(resources.EN ?? {}), ...Object.keys(resources.TY ?? {})])];

  it('has the common namespace in EN and TY', () => {
    expect(namespaces).toContain('common');
  });

  for (const ns of namespaces) {
    it(`${ns}: EN and TY have the same non-empty keys`, () => {
      const en = keysOf('EN', ns);
      const ty = keysOf('TY', ns);
      const problems: string[] = [];
      for (const [k, v] of en) if (!isFilled(v)) problems.push(`EN ${ns}:${k} is empty`);
      for (const [k, v] of ty) if (!isFilled(v)) problems.push(`TY ${ns}:${k} is empty`);
      for (const k of en.keys()) if (!ty.has(k)) problems.push(`TY is missing ${ns}:${k}`);
      for (const k of ty.keys()) if (!en.has(k)) problems.push(`EN is missing ${ns}:${k}`);
      expect(problems).toEqual([]);
    });
  }

  it('every literal key used in the source exists in EN', () => {
    expect(Object.keys(sources).length).toBeGreaterThan(0);
    const missing: string[] = [];
    let used = 0;
    for (const [file, source] of Object.entries(sources)) {
      for (const { ns, key } of extractKeys(source)) {
        used += 1;
        if (!hasKey(keysOf('EN', ns), key)) missing.push(`${file}: ${ns}:${key}`);
      }
    }
    expect(used).toBeGreaterThan(50);
    expect(missing).toEqual([]);
  });

  it('a text with {{placeholders}} is never used without its values (a console header read "Session limit {{minutes}} min")', () => {
    const bare: string[] = [];
    for (const [file, source] of Object.entries(sources)) {
      const defaultNs = /useTranslation\(\s*\[?\s*['"]([^'"]+)['"]/.exec(source)?.[1] ?? 'common';
      for (const m of source.matchAll(/(?<![\w$])t\(\s*(['"])([^'"\n]+)\1\s*\)/g)) {
        const raw = m[2] ?? '';
        const sep = raw.indexOf(':');
        const [ns, key] = sep > 0 ? [raw.slice(0, sep), raw.slice(sep + 1)] : [defaultNs, raw];
        const text = keysOf('EN', ns).get(key);
        if (typeof text === 'string' && text.includes('{{')) bare.push(`${file}: ${ns}:${key} = ${JSON.stringify(text)}`);
      }
    }
    expect(bare).toEqual([]);
  });

  it('has the keys the contracts name (navigation, pages, error codes)', () => {
    const common = keysOf('EN', 'common');
    const needed = [
      ...NAV_ITEMS.map((n) => n.nameKey),
      ...PAGE_KEYS,
      ...Object.values(ErrorCode).map((c) => `error_${c}`),
      ...Object.values(CLIENT_ERROR_CODE).map((c) => `error_${c}`),
      'blockip',
      'info_ip_block',
    ];
    expect(needed.filter((k) => !hasKey(common, k))).toEqual([]);
  });
});

describe('extractKeys', () => {
  it('reads t() keys with the file namespace and ns: prefixes', () => {
    const src = "const { t } = useTranslation('home'); t('a'); t(\"common:b\"); i18n.t('c'); format('x'); <Trans i18nKey=\"d\" />";
    expect(extractKeys(src)).toEqual([
      { ns: 'home', key: 'a' },
      { ns: 'common', key: 'b' },
      { ns: 'home', key: 'c' },
      { ns: 'home', key: 'd' },
    ]);
  });
});

describe('TY is translated', () => {
  it('has no TY text equal to its EN text, except the reviewed list (same-in-ty.ts)', () => {
    const same: string[] = [];
    for (const ns of Object.keys(resources.EN ?? {})) {
      const ty = keysOf('TY', ns);
      for (const [k, v] of keysOf('EN', ns)) if (typeof v === 'string' && ty.get(k) === v && !SAME_IN_TY.has(v)) same.push(`${ns}:${k} = ${JSON.stringify(v)}`);
    }
    expect(same).toEqual([]);
  });

  it('keeps the reviewed list to texts still in use, each with a reason', () => {
    const used = new Set<string>();
    for (const ns of Object.keys(resources.EN ?? {})) {
      const ty = keysOf('TY', ns);
      for (const [k, v] of keysOf('EN', ns)) if (typeof v === 'string' && ty.get(k) === v) used.add(v);
    }
    for (const [text, why] of SAME_IN_TY) {
      expect(used.has(text), text).toBe(true);
      expect(why.length, text).toBeGreaterThan(5);
    }
  });
});
