import { afterEach, describe, expect, it, vi } from 'vitest';
import type { THouseSession } from '@portal/contracts/api/house';
import { isHouseSessionEnded, setHouseSession } from './house-call';
import { getHouseState, openHouseSession, spinSlot } from './house-ops';

const SESSION: THouseSession = {
  session: 's'.repeat(43), game: 'SLOT1', gameName: 'Lucky Peso Reels', nickname: 'p', currency: 'PHP', balance: 1_000, freePlay: false,
  stakes: [100], fair: { serverSeedHash: 'h', clientSeed: 'c', nonce: 0 }, rtp: 0.9616,
};
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => {
  vi.unstubAllGlobals();
  setHouseSession(null);
});

describe('house game page calls', () => {
  it('trades a launch code once, even when the page asks twice (StrictMode runs effects twice)', async () => {
    const fetch = vi.fn(async () => json(200, { success: true, value: SESSION }));
    vi.stubGlobal('fetch', fetch);
    const [a, b] = await Promise.all([openHouseSession('c'.repeat(43), 'SLOT1'), openHouseSession('c'.repeat(43), 'SLOT1')]);
    expect(a).toEqual(SESSION);
    expect(b).toEqual(SESSION);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('drops the game session once the gateway says it has ended, and says so', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(401, { success: false, code: 'GAME_TOKEN_INVALID', message: 'Game session is invalid or has expired' })));
    setHouseSession(SESSION.session);
    expect(isHouseSessionEnded()).toBe(false);
    await expect(spinSlot(100)).rejects.toMatchObject({ code: 'GAME_TOKEN_INVALID' });
    expect(isHouseSessionEnded()).toBe(true);
    // the next call no longer sends the ended session
    const fetch = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => json(200, { success: true, value: SESSION }));
    vi.stubGlobal('fetch', fetch);
    await getHouseState('SLOT1');
    expect(new Headers(fetch.mock.calls[0]![1]?.headers).get('x-house-session')).toBeNull();
    // a new session (a new launch) clears the flag
    setHouseSession(SESSION.session);
    expect(isHouseSessionEnded()).toBe(false);
  });

  it('another refusal (not enough money) keeps the session', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(409, { success: false, code: 'INSUFFICIENT_FUNDS', message: 'x' })));
    setHouseSession(SESSION.session);
    await expect(spinSlot(100)).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    expect(isHouseSessionEnded()).toBe(false);
  });
});
