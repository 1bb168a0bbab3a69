import { describe, expect, it } from 'vitest';
import { hashSeed } from './fair.ts';
import { PVP_ANTE, dealRound, handValue, shuffledDeck, splitPot, verifyRound } from './lucky9.ts';

// Cards 0..51: rank = card % 13 (0 ace .. 12 king).
const A = 0, FIVE = 4, NINE = 8, TEN = 9, K = 12;

describe('Lucky 9 hands', () => {
  it('values a hand as the sum mod 10 (ace 1, tens and pictures 0)', () => {
    expect(handValue([A, NINE - 1])).toBe(9);
    expect(handValue([NINE, NINE])).toBe(8);
    expect(handValue([TEN, K])).toBe(0);
    expect(handValue([FIVE, FIVE + 13])).toBe(0);
    expect(handValue([A + 26, TEN + 13])).toBe(1);
  });

  it('splits the pot: 5% rake rounded down, ties share evenly, odd centavos to the house', () => {
    expect(splitPot(1_000, 2, 1)).toEqual({ pot: 2_000, rake: 100, share: 1_900, houseTake: 100 });
    expect(splitPot(1_000, 2, 2)).toEqual({ pot: 2_000, rake: 100, share: 950, houseTake: 100 });
    // 3 × ₱10.01 = 3003: rake 150, 2853 / 2 = 1426 each, 1 centavo left over.
    expect(splitPot(1_001, 3, 2)).toEqual({ pot: 3_003, rake: 150, share: 1_426, houseTake: 151 });
    expect(splitPot(1_000, 3, 3)).toEqual({ pot: 3_000, rake: 150, share: 950, houseTake: 150 });
    for (const [ante, n, w] of [[1_000, 5, 3], [333, 7, 4], [5_000, 8, 8]] as const) {
      const s = splitPot(ante, n, w);
      expect(s.share * w + s.houseTake).toBe(s.pot);
      expect(s.houseTake - s.rake).toBeLessThan(w);
    }
  });
});

describe('Lucky 9 deal (provably fair)', () => {
  const seed = 'a'.repeat(64);

  it('shuffles a full deck from the seed and the round id, the same every time', () => {
    const d = shuffledDeck(seed, 'PVP1-7');
    expect([...d].sort((a, b) => a - b)).toEqual(Array.from({ length: 52 }, (_, i) => i));
    expect(shuffledDeck(seed, 'PVP1-7')).toEqual(d);
    expect(shuffledDeck(seed, 'PVP1-8')).not.toEqual(d);
  });

  it('deals two cards each round the table, pays the best hand, cancels a lone player', () => {
    const deck = shuffledDeck(seed, 'PVP1-3');
    const r = dealRound(seed, 'PVP1-3', [11, 12, 13]);
    expect(r.hands.map((h) => h.cards)).toEqual([[deck[0], deck[3]], [deck[1], deck[4]], [deck[2], deck[5]]]);
    const best = Math.max(...r.hands.map((h) => h.value));
    expect(r.winners).toEqual(r.hands.filter((h) => h.value === best).map((h) => h.seat));
    expect(r.hands.reduce((a, h) => a + h.win, 0) + r.houseTake).toBe(3 * PVP_ANTE);
    expect(dealRound(seed, 'PVP1-3', [11])).toMatchObject({ cancelled: true, hands: [], pot: 0 });
  });

  it('verifies a round from the revealed seed, and catches a changed seed or hand', () => {
    const result = dealRound(seed, 'PVP1-9', [1, 2]);
    const ok = { serverSeed: seed, seedHash: hashSeed(seed), roundId: 'PVP1-9', seats: [1, 2], result };
    expect(verifyRound(ok)).toBe(true);
    expect(verifyRound({ ...ok, seedHash: hashSeed('b'.repeat(64)) })).toBe(false);
    const forged = { ...result, winners: [2], hands: result.hands.map((h) => ({ ...h, value: h.seat === 2 ? 9 : 0 })) };
    expect(verifyRound({ ...ok, result: forged })).toBe(false);
    // Over many rounds the deal is not stuck on one seat: both seats win sometimes.
    const wins = new Set<number>();
    for (let i = 0; i < 50; i++) for (const w of dealRound(seed, `PVP1-${i}`, [1, 2]).winners) wins.add(w);
    expect([...wins].sort()).toEqual([1, 2]);
  });
});
