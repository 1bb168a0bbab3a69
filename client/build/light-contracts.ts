import path from 'node:path';
import { runnerImport, type Plugin } from 'vite';

/**
 * Production build only: the client imports the zod contracts (contracts/src/api/*.ts) for their
 * call definitions (method, path) and to validate what the gateway answers. This plugin replaces
 * each such module, for the client bundle, with a light one of the same exports: data as literals,
 * functions as their source, and every zod schema as a handle (src/lib/lazy-schema.ts) that loads
 * the real module (`?full`, with zod) on first use. lib/api.ts sends queries as given (the gateway
 * parses them with the same contract), uses responses whose schema returns valid input unchanged as
 * they are, and loads the schema only for the others. So zod is not part of the first load.
 */
const CONTRACT_API = /[\\/]contracts[\\/]src[\\/]api[\\/](?!envelope\.ts$|errors\.ts$)[^\\/]+\.ts$/;
const FULL = '?full';
const CONTRACTS = /[\\/]contracts[\\/]src[\\/]/;

type ZodLike = { _zod: { def: Record<string, unknown> & { type: string } } };
const isZod = (v: unknown): v is ZodLike => typeof v === 'object' && v !== null && '_zod' in v && typeof (v as ZodLike)._zod?.def?.type === 'string';

/** Zod types whose parse returns a valid input unchanged (given identity children and no overwrite checks). */
const PLAIN = new Set(['string', 'number', 'int', 'boolean', 'bigint', 'null', 'undefined', 'literal', 'enum', 'any', 'unknown', 'nan', 'never', 'void', 'symbol', 'template_literal', 'object', 'array', 'optional', 'nullable', 'union', 'intersection', 'record', 'tuple', 'lazy', 'readonly', 'nonoptional', 'map', 'set']);

export function isIdentity(s: ZodLike, seen = new Set<unknown>()): boolean {
  if (seen.has(s)) return true;
  seen.add(s);
  const def = s._zod.def;
  if (!PLAIN.has(def.type) || def.coerce === true) return false;
  const checks = (def.checks as ZodLike[] | undefined) ?? [];
  if (checks.some((c) => (c._zod.def as { check?: string }).check === 'overwrite')) return false;
  const kids: unknown[] = [];
  if (def.type === 'object') kids.push(...Object.values(def.shape as Record<string, unknown>), def.catchall);
  if (def.type === 'lazy') kids.push((def.getter as () => unknown)());
  for (const k of ['element', 'innerType', 'left', 'right', 'keyType', 'valueType', 'rest']) kids.push(def[k]);
  for (const k of ['options', 'items']) if (Array.isArray(def[k])) kids.push(...(def[k] as unknown[]));
  return kids.every((k) => k === undefined || !isZod(k) || isIdentity(k, seen));
}

function literal(v: unknown, at: string[], full: string): string {
  if (isZod(v)) return `__lazy(__full, ${JSON.stringify(at)}, ${isIdentity(v)})`;
  if (v === undefined) return 'undefined';
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return JSON.stringify(v);
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : v > 0 ? 'Infinity' : v < 0 ? '-Infinity' : 'NaN';
  if (typeof v === 'bigint') return `${v}n`;
  if (v instanceof RegExp) return v.toString();
  if (Array.isArray(v)) return `[${v.map((x, i) => literal(x, [...at, String(i)], full)).join(', ')}]`;
  const proto = typeof v === 'object' ? Object.getPrototypeOf(v) : undefined;
  if (proto === Object.prototype || proto === null) {
    return `{ ${Object.entries(v as Record<string, unknown>).map(([k, x]) => `${JSON.stringify(k)}: ${literal(x, [...at, k], full)}`).join(', ')} }`;
  }
  throw new Error(`light-contracts: ${full}: cannot ship ${at.join('.')} (${typeof v}) without its module`);
}

export function lightContracts(): Plugin {
  const runtime = path.resolve(import.meta.dirname, '../src/lib/lazy-schema.ts');
  return {
    name: 'portal:light-contracts',
    apply: 'build',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      // Inside the contracts (a full module, events.ts, the domain), contract imports stay full:
      // their schemas are built from the imported ones.
      if (!importer || source.endsWith(FULL) || !CONTRACTS.test(importer)) return null;
      const r = await this.resolve(source, importer.endsWith(FULL) ? importer.slice(0, -FULL.length) : importer, { ...options, skipSelf: true });
      if (r && !r.external && CONTRACT_API.test(r.id)) return { ...r, id: r.id + FULL };
      return r;
    },
    async load(id) {
      if (id.endsWith(FULL) || !CONTRACT_API.test(id)) return null;
      const { module } = await runnerImport<Record<string, unknown>>(id);
      const lines = [
        `import { lazySchema as __lazy } from ${JSON.stringify(runtime)};`,
        `const __full = () => import(${JSON.stringify(id + FULL)});`,
      ];
      for (const [name, v] of Object.entries(module)) {
        if (typeof v === 'function') {
          const src = v.toString();
          // A function that builds schemas or uses imports is left out: a client import of it then
          // fails the build ("missing export") instead of failing in the browser.
          if (!/^(\(|[A-Za-z_$][\w$]*\s*=>|function\b)/.test(src) || /__vite_ssr_|\bz\./.test(src)) continue;
          lines.push(`export const ${name} = ${src};`);
        } else lines.push(`export const ${name} = ${literal(v, [name], id)};`);
      }
      return { code: lines.join('\n'), moduleType: 'js' };
    },
  };
}
