/** Uniform in [0, n) (crypto.getRandomValues is global in Node and browsers; contracts have no node types). */
const randomInt = (n: number) => { const a = new Uint32Array(1); let x: number; const lim = Math.floor(0x1_0000_0000 / n) * n; do { (globalThis as unknown as { crypto: { getRandomValues(a: Uint32Array): void } }).crypto.getRandomValues(a); x = a[0]!; } while (x >= lim); return x % n; };
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { splitProblem, splitRedEnvelope, type RandomInt } from './red-envelope-split.ts';

/** A valid envelope: count and minimum, then a total that can give every share its minimum. */
const envelope = fc
  .record({ count: fc.integer({ min: 1, max: 400 }), min: fc.integer({ min: 1, max: 5_000 }), extra: fc.integer({ min: 0, max: 50_000_000 }) })
  .map(({ count, min, extra }) => ({ count, min, total: count * min + extra }));

/** A random source driven by fast-check (so a failure shrinks and replays): uniform in [0, n). */
const seededRandom = (seed: number): RandomInt => {
  let s = seed >>> 0 || 1;
  return (n: number) => {
    // xorshift32, then scaled: the property must hold for any source, not only a good one
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    return Math.floor((s / 0x1_0000_0000) * n);
  };
};

describe('splitRedEnvelope (double average)', () => {
  it('count exact, sum exact, no share below the minimum: for any envelope and any random source', () => {
    fc.assert(
      fc.property(envelope, fc.integer(), ({ total, count, min }, seed) => {
        const shares = splitRedEnvelope(total, count, min, seededRandom(seed));
        expect(shares).toHaveLength(count);
        expect(shares.reduce((a, b) => a + b, 0)).toBe(total);
        expect(shares.every((s) => Number.isSafeInteger(s))).toBe(true);
        expect(Math.min(...shares)).toBeGreaterThanOrEqual(min);
      }),
      { numRuns: 500 },
    );
  });

  it('holds at the extremes of the random source (always 0, always the top)', () => {
    fc.assert(
      fc.property(envelope, fc.boolean(), ({ total, count, min }, top) => {
        const shares = splitRedEnvelope(total, count, min, top ? (n) => n - 1 : () => 0);
        expect(shares).toHaveLength(count);
        expect(shares.reduce((a, b) => a + b, 0)).toBe(total);
        expect(Math.min(...shares)).toBeGreaterThanOrEqual(min);
      }),
    );
  });

  it('an envelope with exactly the minimum for each share gives every share the minimum', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 1000 }), (count, min) => {
        expect(splitRedEnvelope(count * min, count, min, (n) => randomInt(n))).toEqual(new Array(count).fill(min));
      }),
    );
  });

  it('is fair: every position has the same expected share (total / count), whatever the order of the grabs', () => {
    const total = 100_000, count = 10, min = 100, runs = 20_000;
    const sums = new Array<number>(count).fill(0);
    for (let r = 0; r < runs; r++) splitRedEnvelope(total, count, min, (n) => randomInt(n)).forEach((s, i) => (sums[i]! += s));
    for (const s of sums) expect(Math.abs(s / runs - total / count)).toBeLessThan((total / count) * 0.03);
  });

  it('refuses what cannot be split', () => {
    expect(splitProblem(99, 10, 10)).not.toBeNull();
    expect(splitProblem(100, 10, 10)).toBeNull();
    expect(splitProblem(100, 0, 1)).not.toBeNull();
    expect(splitProblem(100, 1, 0)).not.toBeNull();
    expect(splitProblem(1.5, 1, 1)).not.toBeNull();
    expect(() => splitRedEnvelope(99, 10, 10, () => 0)).toThrow(RangeError);
  });
});
