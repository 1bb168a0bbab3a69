import { describe, expect, it } from 'vitest';
import { BACCARAT_STAKES, baccaratReturn, bankerDraws, cardValue, dealCoup, playCoup } from './baccarat.ts';
import { fairStream } from './fair.ts';

/** Cards by value for playCoup: value v of spades (v = 0 -> a ten). */
const cards = (...values: number[]) => {
  const q = values.map((v) => (v === 0 ? 9 : v - 1));
  return () => q.shift()!;
};

describe('baccarat rules', () => {
  it('card values: aces 1, tens and pictures 0', () => {
    expect([0, 1, 8, 9, 10, 11, 12, 13].map(cardValue)).toEqual([1, 2, 9, 0, 0, 0, 0, 1]);
  });

  it('naturals stand; the player draws on 0-5; the banker follows the tableau', () => {
    expect(playCoup(cards(8, 1, 0, 5))).toMatchObject({ playerTotal: 8, bankerTotal: 6, winner: 'player' });
    const h = playCoup(cards(2, 3, 1, 0, 6, 4));
    expect(h.player).toHaveLength(3);
    expect(h.banker).toHaveLength(3); // banker 3 vs player third 6: draws
    expect(h).toMatchObject({ playerTotal: 9, bankerTotal: 7, winner: 'player' });
    expect(bankerDraws(3, 8)).toBe(false);
    expect(bankerDraws(6, null)).toBe(false);
    expect(bankerDraws(5, null)).toBe(true);
    expect(bankerDraws(6, 6)).toBe(true);
    expect(bankerDraws(4, 1)).toBe(false);
  });

  it('pays 1:1, 0.95:1 and 8:1, pushing on a tie', () => {
    expect(baccaratReturn('player', 1_000, 'player')).toBe(2_000);
    expect(baccaratReturn('banker', 1_000, 'banker')).toBe(1_950);
    expect(baccaratReturn('tie', 1_000, 'tie')).toBe(9_000);
    expect(baccaratReturn('banker', 1_000, 'tie')).toBe(1_000);
    expect(baccaratReturn('player', 1_000, 'banker')).toBe(0);
    for (const s of BACCARAT_STAKES) expect(Number.isInteger(baccaratReturn('banker', s, 'banker'))).toBe(true);
  });

  it('fair deals give the known outcome odds (banker 45.86%, player 44.62%, tie 9.52%)', () => {
    const n = 60_000;
    const count = { player: 0, banker: 0, tie: 0 };
    for (let i = 0; i < n; i++) count[dealCoup(fairStream('s'.repeat(64), 'BACC1', i)).winner] += 1;
    expect(count.banker / n).toBeCloseTo(0.4586, 1);
    expect(Math.abs(count.banker / n - 0.4586)).toBeLessThan(0.01);
    expect(Math.abs(count.player / n - 0.4462)).toBeLessThan(0.01);
    expect(Math.abs(count.tie / n - 0.0952)).toBeLessThan(0.006);
  });
});
