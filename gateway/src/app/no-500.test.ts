import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallDef } from '@portal/contracts/api/envelope';
import { authCalls, oidcCalls } from '@portal/contracts/api/auth';
import { cashierCalls } from '@portal/contracts/api/cashier';
import { contentCalls } from '@portal/contracts/api/content';
import { catalogueCalls, gameCalls } from '@portal/contracts/api/games';
import { opsCalls } from '@portal/contracts/api/ops';
import { systemCalls } from '@portal/contracts/api/system';
import { launchCall, vendorCalls } from '@portal/contracts/api/vendor';
import { walletCalls } from '@portal/contracts/api/wallet';
import { houseCalls } from '@portal/contracts/api/house';
import { betsCalls } from '@portal/contracts/api/bets';
import { api, startTestPortal, type TestPortal } from '../testing/test-portal.ts';

/**
 * No endpoint answers 500 to anything a client can send: every call of the contracts gets junk
 * bodies and queries, as a guest and with a member token, and must answer a 4xx envelope (or 2xx).
 */
let t: TestPortal;
let token = '';
beforeAll(async () => {
  t = await startTestPortal();
  token = (await api<{ token: string }>(t.url, '/wps/dev/sessions', { body: { account: 'junkuser1' } })).json!.value!.token;
});
afterAll(async () => {
  await t.stop();
});

type AnyCall = CallDef<never, never, never>;
const groups: Record<string, Record<string, unknown>> = {
  authCalls, oidcCalls, cashierCalls, contentCalls, gameCalls, catalogueCalls, opsCalls, systemCalls, vendorCalls, walletCalls, houseCalls, betsCalls, launch: { launchCall },
};
const calls = Object.entries(groups).flatMap(([g, defs]) =>
  Object.entries(defs)
    .filter(([, def]) => typeof def === 'object' && def !== null && 'path' in def && 'method' in def)
    .map(([name, def]) => ({ name: `${g}.${name}`, def: def as AnyCall })));

const JUNK_BODIES = ['{', 'null', '[]', '"x"', '12', '{"a":1}', JSON.stringify({ amount: -1, nodeId: '\u0000', id: 'x'.repeat(5000) }), JSON.stringify({ __proto__: { polluted: true }, constructor: { prototype: {} } })];
const JUNK_QUERIES = ['?pageNo=-1&pageSize=99999', '?a[b]=1', '?from=notadate&to=2026-13-45', '?pageNo=1&pageNo=2', `?gameName=${'%25'.repeat(300)}`];

describe('no endpoint answers 500 to client input', () => {
  it(`covers ${calls.length} contract calls`, () => {
    expect(calls.length).toBeGreaterThan(60);
  });

  for (const { name, def } of calls) {
    it(name, async () => {
      const path = def.path.replace(/:([A-Za-z]+)/g, (_m, p: string) => (p === 'vendor' ? 'HOUSE' : p === 'provider' ? 'sim' : 'abc'));
      const statuses: number[] = [];
      for (const auth of [undefined, token]) {
        if (def.method === 'GET' || def.method === 'DELETE') {
          for (const q of JUNK_QUERIES) {
            const r = await api(t.url, path + q, { method: def.method, ...(auth ? { token: auth } : {}) });
            statuses.push(r.status);
            if (r.status >= 400) expect(r.json, `${name} ${q}`).toMatchObject({ success: false });
          }
        } else {
          for (const b of JUNK_BODIES) {
            const r = await api(t.url, path, { method: def.method, body: b, ...(auth ? { token: auth } : {}) });
            statuses.push(r.status);
            if (r.status >= 400) expect(r.json, `${name} ${b.slice(0, 30)}`).toMatchObject({ success: false });
          }
        }
      }
      expect(statuses.filter((s) => s >= 500 && s !== 503), `${name}: ${statuses.join(',')}`).toEqual([]);
    });
  }
});
