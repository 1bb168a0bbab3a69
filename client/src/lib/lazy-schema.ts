import type { z } from 'zod';

const LAZY = Symbol.for('portal.lazySchema');

/**
 * A contract schema as the production build ships it (client/build/light-contracts.ts): the call
 * definitions keep their method and path, and each schema becomes this handle, which loads the real
 * zod schema (and zod) only when something needs it. `identity` is true when parsing a valid value
 * returns it unchanged (no defaults, coercion, trimming or transforms): a response under such a
 * schema is used as the gateway sent it, unvalidated, so zod stays out of the first load. The dev
 * server and the tests run on the real contracts and validate every response.
 */
export type LazySchema = { readonly [LAZY]: true; readonly identity: boolean; load: () => Promise<z.ZodType> };

export function lazySchema(load: () => Promise<Record<string, unknown>>, path: readonly string[], identity: boolean): LazySchema {
  let pending: Promise<z.ZodType> | null = null;
  return {
    [LAZY]: true,
    identity,
    load: () =>
      (pending ??= load().then(
        (m) => path.reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], m) as z.ZodType,
        (err: unknown) => {
          pending = null;
          throw err;
        },
      )),
  };
}

export function isLazySchema(v: unknown): v is LazySchema {
  return typeof v === 'object' && v !== null && LAZY in v;
}

/** The real schema behind `s` (loaded on first use), or `s` itself when it is one already. */
export async function schemaOf<S extends z.ZodType>(s: S): Promise<S> {
  const v: unknown = s;
  return isLazySchema(v) ? ((await v.load()) as S) : s;
}
