import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRACT_RELAY_NAMES } from '@portal/contracts/api/agent-payouts';
import { startTestPortal, type TestPortal } from '../../testing/test-portal.ts';
import { apiOn, testMembers } from '../../testing/test-members.ts';

/**
 * Module flag AGENTPOLICY3 on the server (contracts/src/domain/constants.ts: flags are enforced on server
 * and client): off, the agent's contract relays and the consolidated contract flags answer the
 * MODULE_DISABLED envelope (403) as the other modules' calls do; on again, they work as before. The
 * settlement test clock (the jobs' own path) is not behind the flag.
 */
let t: TestPortal;
beforeAll(async () => {
  t = await startTestPortal();
}, 60_000);
afterAll(async () => {
  await t.stop();
});

type Json = Record<string, unknown>;
const call = apiOn(() => t.url);
const member = testMembers(() => t.url, { prefix: 'ap' });
const setPolicy = async (on: boolean) => expect((await call('/wps/dev/merchant', { body: { modules: { AGENTPOLICY3: on } } })).status).toBe(200);

const wages = (rate: number) => ({ kind: 'dailyWages', rate, activeMembers: 0, betAmount: 0, validBetPeriod: 'daily' });
const RELAYS = Object.values(CONTRACT_RELAY_NAMES).map((name) => `/wps/relay/${name}`);
const CONSOLIDATED = '/wps/member/info/funds/consolidated';

describe('AGENTPOLICY3', () => {
  it('off: the contract relays and the consolidated call answer MODULE_DISABLED; on: they work as before', async () => {
    const a = await member(1);
    const b = await member(1, a);
    const p = await member(0, a);
    expect((await call('/wps/dev/agent-contracts/house', { body: { memberId: a.memberId, terms: wages(300) } })).status).toBe(200);

    const before = await Promise.all(RELAYS.map((path) => call<{ list: Json[] }>(path, { token: a.token, body: { action: 'list' } })));
    expect(before.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(before.map((r) => r.json!.value!.list.length)).toEqual([0, 1, 0, 0]);
    expect((await call<Json>(CONSOLIDATED, { token: a.token })).json!.value).toMatchObject({ isAgent: true, dailySalary: { active: true, rateBps: 300 } });

    await setPolicy(false);
    try {
      for (const path of RELAYS) {
        for (const body of [{ action: 'list' }, { action: 'offer', downlineId: b.memberId, terms: { rate: 200, activeMembers: 0, betAmount: 0, validBetPeriod: 'daily' } }]) {
          const r = await call(path, { token: a.token, body });
          expect(r.status, `${path} ${body.action}`).toBe(403);
          expect(r.json, `${path} ${body.action}`).toMatchObject({ success: false, code: 'MODULE_DISABLED' });
        }
      }
      for (const who of [a, b, p]) {
        const r = await call(CONSOLIDATED, { token: who.token });
        expect(r.status).toBe(403);
        expect(r.json).toMatchObject({ success: false, code: 'MODULE_DISABLED' });
      }
      // Nothing was offered through a refused relay.
      expect((await t.portal.db.query('SELECT 1 FROM agent_contracts WHERE downline_id = $1', [b.memberId])).rows).toEqual([]);
      // The settlement jobs' own path is not the agent's: it still runs.
      expect((await call('/wps/dev/agent-settlement/run', { body: { kind: 'dailyWages' } })).status).toBe(200);
    } finally {
      await setPolicy(true);
    }

    const after = await Promise.all(RELAYS.map((path) => call<{ list: Json[] }>(path, { token: a.token, body: { action: 'list' } })));
    expect(after.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(after.map((r) => r.json!.value!.list.length)).toEqual([0, 1, 0, 0]);
    const offer = await call<{ id: number; status: string }>(RELAYS[1]!, { token: a.token, body: { action: 'offer', downlineId: b.memberId, terms: { rate: 200, activeMembers: 0, betAmount: 0, validBetPeriod: 'daily' } } });
    expect(offer.status).toBe(200);
    expect(offer.json!.value).toMatchObject({ status: 'offered' });
    expect((await call<Json>(CONSOLIDATED, { token: b.token })).json!.value).toMatchObject({ isAgent: true, pendingOffers: 1, dailySalary: { active: false, pendingOffer: true } });
    expect((await call<Json>(CONSOLIDATED, { token: p.token })).json!.value).toMatchObject({ isAgent: false, pendingOffers: 0 });
  });
});
