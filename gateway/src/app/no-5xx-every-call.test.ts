import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPortal, type TestPortal } from '../testing/test-portal.ts';
import { enrolOperatorTotp, totpNow } from '../testing/ops-totp.ts';

/**
 * No call answers 5xx to what a client can send (the standard; an outside test sent 10,000 malformed
 * requests without one): every call defined in contracts/src/api (the player API, the agent office, the
 * back office), found by walking the modules rather than listed here, so a new call is covered when it
 * is defined. Each gets junk in its path parameters, its query (each of the query schema's keys in turn,
 * arrays, operator objects) and its body (not JSON, wrong shapes, each body key with wrong types), first
 * as a guest, then signed in as the role it is for (a player, an agent, the demo operator), so the junk
 * reaches the handlers' validation and not only the sign-in check. Every refusal must be the
 * `{ success:false, code, message }` envelope. Calls that would end the test's own sessions (sign-out,
 * password changes) or put the whole site into maintenance (PUT /ops/api/site) are sent as a guest only.
 */

type Def = { method: string; path: string; auth: boolean; query?: unknown; body?: unknown };

const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../contracts/src/api');

async function allCalls(): Promise<Def[]> {
  const defs = new Map<string, Def>();
  for (const f of readdirSync(API_DIR).sort()) {
    if (!f.endsWith('.ts') || f.endsWith('.test.ts')) continue;
    const mod = (await import(path.join(API_DIR, f))) as Record<string, unknown>;
    for (const group of Object.values(mod)) {
      if (!group || typeof group !== 'object') continue;
      for (const d of Object.values(group as Record<string, unknown>)) {
        const def = d as Def | null;
        if (def && typeof def === 'object' && typeof def.method === 'string' && typeof def.path === 'string' && 'value' in def) {
          defs.set(`${def.method} ${def.path}`, def);
        }
      }
    }
  }
  return [...defs.values()];
}

/** The keys of an object schema, through optional/default/effects wrappers (zod 4 keeps them on `def`). */
function keysOf(schema: unknown): string[] {
  let z = schema as { shape?: Record<string, unknown>; def?: Record<string, unknown> } | undefined;
  for (let i = 0; i < 6 && z; i++) {
    if (z.shape && typeof z.shape === 'object') return Object.keys(z.shape);
    z = (z.def?.innerType ?? z.def?.schema ?? z.def?.in ?? z.def?.left) as typeof z;
  }
  return [];
}

const PARAMS = ['abc', '99999999999999999999999', '-1', '%E0%A4%A', '1e400'];
const QUERY_VALUES = ['', '-1', 'x'.repeat(3000), '99999999999999999999', '2026-02-30', '1.5'];
const BODY_VALUES: unknown[] = [null, 'x'.repeat(10_000), -1, 1e308, [], {}, true, '2026-13-45', [1, 'a'], { $gt: 1 }, '\u0000', 2 ** 53];
const RAW_BODIES = ['null', '[]', '"x"', '{}', '{"__proto__":{"a":1}}', 'not json'];
/** Sent as a guest only: they would end the test's own sessions, or close the site (maintenance answers 503 by design). */
const GUEST_ONLY = /logout|session\/keep|\/session$|password|\/dev\/|^\/ops\/api\/site$/;

type Req = { method: string; url: string; token: string; body?: string; who: string };

function requestsFor(def: Def, who: string, token: string, full: boolean): Req[] {
  const out: Req[] = [];
  const paths = /:[a-zA-Z]+/.test(def.path)
    ? (full ? PARAMS : PARAMS.slice(0, 1)).map((v) => def.path.replace(/:[a-zA-Z]+/g, v))
    : [def.path];
  const queryKeys = keysOf(def.query);
  const bodyKeys = keysOf(def.body);
  for (const [pi, p] of paths.entries()) {
    if (def.method === 'GET') {
      out.push({ method: 'GET', url: p, token, who });
      if (!full || pi > 0) continue;
      for (const [ki, k] of queryKeys.entries()) {
        for (const v of [QUERY_VALUES[ki % QUERY_VALUES.length]!, QUERY_VALUES[(ki + 2) % QUERY_VALUES.length]!]) {
          out.push({ method: 'GET', url: `${p}?${encodeURIComponent(k)}=${encodeURIComponent(v)}`, token, who });
        }
      }
      out.push({ method: 'GET', url: `${p}?${queryKeys.map((k) => `${k}[]=1&${k}[]=2`).join('&') || 'a[$gt]=1'}`, token, who });
    } else {
      for (const b of full && pi === 0 ? RAW_BODIES : RAW_BODIES.slice(3, 4)) out.push({ method: def.method, url: p, token, who, body: b });
      if (!full || pi > 0) continue;
      for (const [ki, k] of bodyKeys.entries()) {
        for (let j = 0; j < 3; j++) {
          out.push({ method: def.method, url: p, token, who, body: JSON.stringify({ [k]: BODY_VALUES[(ki + j * 4) % BODY_VALUES.length] }) });
        }
      }
      for (const v of BODY_VALUES.slice(0, 6)) out.push({ method: def.method, url: p, token, who, body: JSON.stringify(Object.fromEntries(bodyKeys.map((k) => [k, v]))) });
    }
  }
  return out;
}

let t: TestPortal;
const tokens = { player: '', agent: '', ops: '' };

async function post<T>(p: string, body: unknown, token?: string): Promise<T> {
  const r = await fetch(t.url + p, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
  const j = (await r.json()) as { value?: T };
  if (!r.ok) throw new Error(`${p}: ${r.status} ${JSON.stringify(j)}`);
  return j.value as T;
}

beforeAll(async () => {
  t = await startTestPortal();
  tokens.player = (await post<{ token: string }>('/wps/dev/sessions', { account: 'junkplayer1' })).token;
  tokens.agent = (await post<{ token: string }>('/wps/dev/sessions', { account: 'junkagent1', type: 2 })).token;
  // The demo operator: its default password changed, an authenticator enrolled, then a full sign-in.
  const first = await post<{ token: string }>('/ops/api/session/login', { username: 'ops01', password: '{secret}' });
  const password = 'Junk-calls-pass-1';
  await post('/ops/api/session/password', { oldPassword: '{secret}', newPassword: password, confirmNewPassword: password }, first.token);
  const secret = await enrolOperatorTotp(t.url, first.token);
  tokens.ops = (await post<{ token: string }>('/ops/api/session/login', { username: 'ops01', password, totp: await totpNow(secret) })).token;
}, 120_000);
afterAll(async () => {
  await t?.stop();
});

describe('junk to every call: a 4xx envelope, never a 5xx', () => {
  it('every call of contracts/src/api, as a guest and as the role it is for', async () => {
    const defs = await allCalls();
    expect(defs.length).toBeGreaterThan(200);
    const reqs: Req[] = [];
    for (const def of defs) {
      const role = def.path.startsWith('/ops/api') ? 'ops' : def.path.startsWith('/wps/agent') ? 'agent' : 'player';
      reqs.push(...requestsFor(def, 'guest', '', false));
      if (!GUEST_ONLY.test(def.path)) reqs.push(...requestsFor(def, role, tokens[role], true));
    }
    const statuses = new Map<number, number>();
    const bad: string[] = [];
    let next = 0;
    await Promise.all(Array.from({ length: 6 }, async () => {
      while (next < reqs.length) {
        const r = reqs[next++]!;
        const res = await fetch(t.url + r.url, {
          method: r.method,
          headers: { ...(r.body !== undefined ? { 'content-type': 'application/json' } : {}), ...(r.token ? { authorization: `Bearer ${r.token}` } : {}) },
          ...(r.body !== undefined ? { body: r.body } : {}),
        });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const text = await res.text();
        const what = `${r.who} ${r.method} ${r.url.slice(0, 120)} ${r.body?.slice(0, 80) ?? ''} -> ${res.status} ${text.slice(0, 200)}`;
        if (res.status >= 500) bad.push(what);
        else if (res.status >= 400) {
          let env: { success?: unknown; code?: unknown; message?: unknown } = {};
          try {
            env = JSON.parse(text) as typeof env;
          } catch {
            /* not JSON: reported below */
          }
          if (env.success !== false || typeof env.code !== 'string' || typeof env.message !== 'string') bad.push(`not the envelope: ${what}`);
        }
      }
    }));
    console.log(`[no-5xx] ${defs.length} calls, ${reqs.length} requests: ${[...statuses].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s} x${n}`).join(', ')}`);
    expect(bad).toEqual([]);
    // The junk reached the handlers' validation, not only the sign-in check.
    expect(statuses.get(400) ?? 0).toBeGreaterThan(reqs.length / 3);
    expect(reqs.length).toBeGreaterThan(3000);
  }, 300_000);
});
