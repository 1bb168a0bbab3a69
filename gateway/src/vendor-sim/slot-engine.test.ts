import { describe, expect, it } from 'vitest';
import { fairStream } from '../modules/house/fair.ts';
import { PAY_UNITS, buildSlot, evaluateSlot, simExactRtp, simSlotWin, slotFor, spinSlot, type SimSlot } from './slot-engine.ts';
import { gameLook } from './sim-games.ts';

describe('vendor simulator: generic seeded slot', () => {
  it('is the same slot for the same vendor and game code, and another for another code', () => {
    const a = slotFor('JL', 'RNG0001');
    // Built again from scratch (not the cache): same strips, paytable and art.
    expect(buildSlot('JL', 'RNG0001')).toEqual(a);
    const b = slotFor('JL', 'RNG0002');
    const c = slotFor('PGS', 'RNG0001');
    expect(b.strips).not.toEqual(a.strips);
    expect(c.strips).not.toEqual(a.strips);
    expect(gameLook('JL', 'X1')).toEqual(gameLook('JL', 'X1'));
  });

  it('states the exact RTP, the same as enumerating every stop combination (small strips)', () => {
    // A hand-made slot small enough to enumerate all 4^2 x 3^3 = 432 stop combinations of all 10 lines.
    const strips = [[0, 1, 2, 3], [1, 2, 1, 0], [2, 1, 3], [1, 1, 2], [3, 0, 1]];
    const pays: [number, number, number][] = [[50, 200, 900], [20, 60, 300], [10, 30, 100], [5, 15, 50]];
    const slot = { seed: 't', symbols: [], strips, pays, rtp: 0, hue: 0 } as unknown as SimSlot;
    let total = 0;
    let n = 0;
    const walk = (reel: number, stops: number[]) => {
      if (reel === 5) {
        total += evaluateSlot(slot, stops).multiplier;
        n++;
        return;
      }
      for (let s = 0; s < strips[reel]!.length; s++) walk(reel + 1, [...stops, s]);
    };
    walk(0, []);
    expect(n).toBe(432);
    expect(simExactRtp(strips, pays)).toBeCloseTo(total / n / PAY_UNITS, 12);
  });

  it('draws every game RTP between 93% and 98% (200 catalogue codes)', () => {
    for (let i = 0; i < 200; i++) {
      const s = slotFor('SIM', `RNG${String(i).padStart(4, '0')}`);
      expect(s.rtp).toBeGreaterThan(0.93);
      expect(s.rtp).toBeLessThan(0.98);
      expect(s.rtp).toBe(simExactRtp(s.strips, s.pays));
    }
  });

  it('a simulation of 100,000 spins agrees with the stated RTP (within 5 standard errors)', () => {
    const slot = slotFor('JL', 'RNG0042');
    let sum = 0;
    let sumSq = 0;
    const N = 100_000;
    for (let i = 0; i < N; i++) {
      const m = spinSlot(slot, fairStream('server-seed', 'client', i)).multiplier / PAY_UNITS;
      sum += m;
      sumSq += m * m;
    }
    const mean = sum / N;
    const se = Math.sqrt((sumSq / N - mean * mean) / N);
    expect(Math.abs(mean - slot.rtp)).toBeLessThan(5 * se);
  });

  it('a spin is a function of (server seed, client seed, nonce) and pays whole centavos', () => {
    const slot = slotFor('JL', 'RNG0007');
    const a = spinSlot(slot, fairStream('s', 'c', 5));
    expect(spinSlot(slot, fairStream('s', 'c', 5))).toEqual(a);
    expect(spinSlot(slot, fairStream('s', 'c', 6)).stops).not.toEqual(a.stops);
    for (const stake of [100, 500, 1_000, 5_000, 10_000]) expect(Number.isInteger(simSlotWin(stake, 1_234))).toBe(true);
    // a catalogue minimum of no whole peso (₱0.20, ₱0.37): the win is whole centavos, rounded down (it was 2.468: refused, the round left open)
    expect([simSlotWin(20, 1_234), simSlotWin(37, 1_234), simSlotWin(20, 50)]).toEqual([246, 456, 10]);
  });
});
