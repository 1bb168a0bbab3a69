import { describe, expect, it } from 'vitest';
import { PAYLINES, REEL_STRIPS, SLOT_STATED_RTP, evaluate, exactRtp, lineWin, spinMultiplier, stopsFrom } from './slot.ts';
import { fairStream } from './fair.ts';

/** sfc32: a small, fast, seeded generator so the million-spin run is reproducible and quick. */
function sfc32(a: number, b: number, c: number, d: number) {
  return {
    int(n: number) {
      a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
      const t = (a + b) | 0;
      a = b ^ (b >>> 9);
      b = (c + (c << 3)) | 0;
      c = (c << 21) | (c >>> 11);
      d = (d + 1) | 0;
      const r = (t + d) | 0;
      c = (c + r) | 0;
      return Math.floor(((r >>> 0) / 0x1_0000_0000) * n);
    },
  };
}

describe('Lucky Peso Reels math', () => {
  it('states the RTP computed exactly from the strips and paytable', () => {
    const rtp = exactRtp();
    expect(Math.abs(rtp - SLOT_STATED_RTP)).toBeLessThan(0.00005);
    expect(rtp).toBeGreaterThan(0.95);
    expect(rtp).toBeLessThan(0.97);
  });

  it('a million simulated spins return the stated RTP within 0.5%', () => {
    const rng = sfc32(0x9e3779b9, 0x243f6a88, 0xb7e15162, 20240601);
    const N = 1_000_000;
    const stops = [0, 0, 0, 0, 0];
    let paid = 0;
    for (let i = 0; i < N; i++) {
      for (let r = 0; r < stops.length; r++) stops[r] = rng.int(REEL_STRIPS[r]!.length);
      paid += spinMultiplier(stops);
    }
    // Line bets paid over line bets staked (10 lines per spin).
    const simulated = paid / (N * PAYLINES.length);
    expect(Math.abs(simulated - SLOT_STATED_RTP)).toBeLessThan(0.005);
  });

  it('pays lines left to right with the wild standing in, and the better of wild and symbol pays', () => {
    expect(lineWin(['7', '7', '7', 'C', '7']).pay).toBe(20);
    expect(lineWin(['7', 'W', '7', '7', 'C'])).toEqual({ symbol: '7', count: 4, pay: 60 });
    expect(lineWin(['W', 'W', 'W', 'C', 'O'])).toEqual({ symbol: 'W', count: 3, pay: 25 });
    expect(lineWin(['W', 'W', 'W', 'W', 'W']).pay).toBe(300);
    expect(lineWin(['C', 'C', 'O', 'C', 'C']).pay).toBe(0);
    expect(lineWin(['O', 'C', 'C', 'C', 'C']).pay).toBe(0);
  });

  it('the fast path agrees with the full evaluation', () => {
    const rng = sfc32(1, 2, 3, 4);
    for (let i = 0; i < 20_000; i++) {
      const stops = REEL_STRIPS.map((s) => rng.int(s.length));
      expect(spinMultiplier(stops)).toBe(evaluate(stops).multiplier);
    }
  });

  it('maps a provably fair stream to reel stops uniformly', () => {
    const counts = new Array<number>(REEL_STRIPS[2]!.length).fill(0);
    const N = 56_000;
    for (let i = 0; i < N; i++) counts[stopsFrom(fairStream('seed', 'client', i))[2]!]! += 1;
    const expected = N / counts.length;
    const chi2 = counts.reduce((a, c) => a + (c - expected) ** 2 / expected, 0);
    // 27 degrees of freedom: the 99.9% quantile is about 55.5.
    expect(chi2).toBeLessThan(55.5);
  });
});
