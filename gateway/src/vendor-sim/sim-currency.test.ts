import { describe, expect, it } from 'vitest';
import { createSimGames, stakesOf } from './sim-games.ts';
import type { SimWallet } from './sim-wallet.ts';

/** The simulated vendors' stakes and play money follow the operator's currency (VND: đồng, no ₫1 bets). */
const noWallet = {} as SimWallet;

describe('vendor simulator in the session currency', () => {
  it('offers the peso stakes in PHP and the same at ₱1 = ₫500 in VND', () => {
    expect(stakesOf('RNG')).toEqual([100, 500, 1_000, 5_000, 10_000]);
    expect(stakesOf('RNG', 'VND')).toEqual([500, 2_500, 5_000, 25_000, 50_000]);
    expect(Math.min(...stakesOf('LIVE', 'VND'))).toBe(500);
  });

  it("free play takes the launch's currency: play money and stakes in đồng; a peso stake is refused", async () => {
    const games = createSimGames(noWallet, { warn: () => undefined });
    const v = games.free({ game: 'RN001', vendor: 'JILI', operator: 'DEMOVN', type: 'RNG', name: 'Slot', currency: 'VND' });
    expect(v).toMatchObject({ currency: 'VND', balance: 1_000_000, stakes: [500, 2_500, 5_000, 25_000, 50_000] });
    await expect(games.play(v.session, { stake: 100 })).rejects.toMatchObject({ code: 'VALIDATION' });
    const r = await games.play(v.session, { stake: 500 });
    expect(r.balance).toBe(1_000_000 - 500 + r.round.win);
    expect(Number.isInteger(r.round.win)).toBe(true);
    const p = games.free({ game: 'RN001', vendor: 'JILI', operator: 'DEMO', type: 'RNG', name: 'Slot' });
    expect(p).toMatchObject({ currency: 'PHP', balance: 200_000, stakes: [100, 500, 1_000, 5_000, 10_000] });
  });
});
