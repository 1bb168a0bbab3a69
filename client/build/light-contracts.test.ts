import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { authCalls } from '@portal/contracts/api/auth';
import { contentCalls } from '@portal/contracts/api/content';
import { gameCalls } from '@portal/contracts/api/games';
import { systemCalls } from '@portal/contracts/api/system';
import { isIdentity } from './light-contracts';

/** isIdentity takes zod's internals by their shape (light-contracts.ts ZodLike); any zod schema has it. */
const identity = (schema: unknown) => isIdentity(schema as Parameters<typeof isIdentity>[0]);

describe('light contracts: which answers the production build uses without loading zod', () => {
  it('tells a schema that returns its valid input unchanged from one that rewrites it', () => {
    expect(identity(z.object({ a: z.string().regex(/^#[0-9a-f]{6}$/), b: z.array(z.number().int()).optional() }))).toBe(true);
    expect(identity(z.object({ a: z.string().trim() }))).toBe(false);
    expect(identity(z.object({ a: z.string().toLowerCase() }))).toBe(false);
    expect(identity(z.object({ a: z.number().default(1) }))).toBe(false);
    expect(identity(z.object({ a: z.coerce.number() }))).toBe(false);
  });

  // Every visit to the home page reads these before or right after its first paint. An answer whose
  // schema rewrites valid input has to be validated, which fetches zod and the contracts (about 23 KB
  // gzip, 90 KB of script to parse) on the first visit: the whitelabel's brand colours did, through a
  // trim and a lower-casing that only input needs.
  it("the home page's first reads all have such schemas", () => {
    const firstReads = {
      'system.status': systemCalls.status, 'system.whitelabel': systemCalls.whitelabel, 'system.domainRoute': systemCalls.domainRoute,
      'system.helpCenter': systemCalls.helpCenter, 'auth.restoreSession': authCalls.restoreSession, 'content.announcements': contentCalls.announcements,
      'games.hotGames': gameCalls.hotGames, 'games.gameVendor': gameCalls.gameVendor, 'games.rankList': gameCalls.rankList,
    };
    const rewriting = Object.entries(firstReads).filter(([, call]) => !identity(call.value)).map(([name]) => name);
    expect(rewriting).toEqual([]);
  });
});

describe('light contracts: client code uses a contract schema only through schemaOf', () => {
  // In the production build a schema of contracts/src/api is a lazy handle (lib/lazy-schema.ts): a direct
  // `ZX.safeParse(...)` works in the tests and the dev server, and throws in the built client (the
  // family-exclusion forms sent nothing: "c.safeParse is not a function").
  it('no client source calls a method on a schema imported from @portal/contracts/api', async () => {
    const { readdirSync, readFileSync, statSync } = await import('node:fs');
    const path = await import('node:path');
    const root = path.resolve(import.meta.dirname, '../src');
    const files: string[] = [];
    const walk = (d: string) => {
      for (const f of readdirSync(d)) {
        const p = path.join(d, f);
        if (statSync(p).isDirectory()) walk(p);
        else if (/\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f)) files.push(p);
      }
    };
    walk(root);
    const found: string[] = [];
    for (const file of files) {
      const src = readFileSync(file, 'utf8');
      const schemas = new Set<string>();
      for (const m of src.matchAll(/import\s*\{([^}]*)\}\s*from\s*'@portal\/contracts\/api\/[^']+'/g)) {
        for (const name of m[1]!.split(',').map((x) => x.trim().replace(/^type\s+/, '').split(/\s+as\s+/).pop()!)) if (/^Z[A-Z]/.test(name)) schemas.add(name);
      }
      for (const s of schemas) {
        if (new RegExp(`\\b${s}\\.(safeParse|parse|parseAsync|safeParseAsync|shape|extend|pick|omit|partial|options|element|unwrap)\\b`).test(src)) found.push(`${path.relative(root, file)}: ${s}`);
      }
    }
    expect(found).toEqual([]);
    expect(files.length).toBeGreaterThan(100);
  });
});
