import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { HOUSE_SESSION_HEADER, type THouseSession } from '@portal/contracts/api/house';
import { api, type TestPortal } from '../../testing/test-portal.ts';
import { transfer } from '../wallet/ledger.ts';

/** Test helpers shared by the house game suites: players with money, launched into a house game. */
export function houseTesting(t: () => TestPortal, prefix: string) {
  let seq = 0;

  const house = <T>(path: string, body: unknown, session?: string) =>
    api<T>(t().url, `/house/api${path}`, { body, headers: session ? { [HOUSE_SESSION_HEADER]: session } : {} });

  /** A member (dev session) credited with `deposit` centavos through the ledger. */
  async function member(deposit: number) {
    const s = (await api<{ memberId: number; token: string }>(t().url, '/wps/dev/sessions', { body: { account: `${prefix}${Date.now() % 1e7}${++seq}` } })).json!.value!;
    if (deposit) {
      await t().portal.db.tx((tx) => transfer(tx, {
        merchant: 'DEMO', currency: 'PHP', key: `seed-${randomBytes(6).toString('hex')}`, kind: 'deposit', amount: deposit, debit: { system: 'deposit' }, credit: { member: s.memberId },
      }));
    }
    return s;
  }

  async function launch(sessionToken: string, nodeId: string) {
    const r = await api<{ url: string; vendor: string; gameCode: string }>(t().url, '/wps/game/launchGame', { body: { nodeId }, token: sessionToken });
    expect(r.status).toBe(200);
    return r.json!.value!;
  }

  /** A funded member launched into `nodeId` and holding its house session, as the game page would. */
  async function seat(deposit: number, nodeId: string) {
    const m = await member(deposit);
    const l = await launch(m.token, nodeId);
    const u = new URL(l.url, t().url);
    expect(u.pathname).toBe('/house/play');
    expect(`HOUSE-${u.searchParams.get('game')}`).toBe(nodeId);
    const r = await house<THouseSession>('/session', { token: u.searchParams.get('token'), game: u.searchParams.get('game') });
    expect(r.status).toBe(200);
    return { m, s: r.json!.value! };
  }

  const balanceOf = async (token: string) => (await api<{ available: number }>(t().url, '/wps/v2/wallets/balance', { token })).json!.value!.available;

  return { house, member, launch, seat, balanceOf };
}
