import type { Resource, ResourceKey } from 'i18next';

/**
 * Turns `import.meta.glob('./locales/<lang>/<ns>.json')` modules into i18next resources keyed by
 * the spec's upper-case language codes: `{ EN: { common: {...}, home: {...} }, TY: {...} }`.
 */
export function buildResources(modules: Record<string, unknown>): Resource {
  const resources: Resource = {};
  for (const [path, mod] of Object.entries(modules)) {
    const m = /locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
    if (!m || !m[1] || !m[2] || typeof mod !== 'object' || mod === null) continue;
    const lang = m[1].toUpperCase();
    const ns = m[2];
    const bundle = resources[lang] ?? {};
    bundle[ns] = mod as ResourceKey;
    resources[lang] = bundle;
  }
  return resources;
}

/** Flattens nested translation objects to dotted keys (i18next's default key separator). */
export function flattenKeys(obj: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (typeof obj !== 'object' || obj === null) return out;
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
      for (const [kk, vv] of flattenKeys(v, key)) out.set(kk, vv);
    } else {
      out.set(key, v);
    }
  }
  return out;
}
