import { describe, expect, it, vi } from 'vitest';
import type { THouseGameCode, THouseSession } from '@portal/contracts/api/house';
import { ApiError } from '../../../lib/api';
import { refreshHouseBalance, type RefreshDeps } from './balance-refresh';

const session = (balance: number): THouseSession => ({
  session: 's', game: 'SLOT1', gameName: 'Lucky Peso Reels', nickname: 'n', currency: 'PHP', balance, freePlay: false, stakes: [100],
  fair: { serverSeedHash: 'h', clientSeed: 'c', nonce: 0 }, rtp: null,
});

function deps(over: Partial<RefreshDeps> = {}): RefreshDeps & { seen: number[]; ends: number } {
  const d = {
    seen: [] as number[], ends: 0,
    state: vi.fn(async (_g: THouseGameCode) => session(105_000) as THouseSession | null),
    ended: () => { d.ends++; },
    balance: (b: number) => { d.seen.push(b); },
    isBusy: () => false,
    isVisible: () => true,
    ...over,
  };
  return d;
}

describe('the house game page follows the wallet while open', () => {
  it('takes the balance the wallet has now (money moved outside the game)', async () => {
    const d = deps();
    await refreshHouseBalance('SLOT1', d);
    expect(d.seen).toEqual([105_000]);
    expect(d.state).toHaveBeenCalledWith('SLOT1');
  });

  it('says the session ended when it is gone, and waits on a network failure or a refusal (house-call ends the page)', async () => {
    const gone = deps({ state: async () => null });
    await refreshHouseBalance('SLOT1', gone);
    expect(gone.ends).toBe(1);
    for (const err of [new ApiError('NETWORK', 'down'), new ApiError('GAME_TOKEN_INVALID', 'ended')]) {
      const d = deps({ state: async () => { throw err; } });
      await refreshHouseBalance('SLOT1', d);
      expect([d.seen, d.ends]).toEqual([[], 0]);
    }
  });

  it('asks nothing while hidden or while a round is in play, and drops an answer that lands during one', async () => {
    const hidden = deps({ isVisible: () => false });
    await refreshHouseBalance('SLOT1', hidden);
    expect(hidden.state).not.toHaveBeenCalled();
    const busy = deps({ isBusy: () => true });
    await refreshHouseBalance('SLOT1', busy);
    expect(busy.state).not.toHaveBeenCalled();
    let spinning = false;
    const late = deps({ isBusy: () => spinning, state: async () => { spinning = true; return session(1); } });
    await refreshHouseBalance('SLOT1', late);
    expect(late.seen).toEqual([]);
  });
});
