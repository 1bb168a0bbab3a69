import { describe, expect, it } from 'vitest';
import { FISH, FISH_RTP, fishRtp, shootFish } from './fish.ts';
import { fairStream } from './fair.ts';

describe('Lucky Fishing math', () => {
  it('every fish returns exactly 96%', () => {
    for (const f of FISH) expect(fishRtp(f.multiple)).toBeCloseTo(FISH_RTP, 12);
  });

  it('fair shots per fish return 96% within 1.5% (the whale within its wider spread)', () => {
    for (const f of FISH) {
      let paid = 0;
      const n = f.multiple >= 30 ? 200_000 : 50_000;
      for (let i = 0; i < n; i++) if (shootFish(f.id, fairStream('fish-seed', 'c', i)).caught) paid += f.multiple;
      // Standard error of the return: multiple * sqrt(p(1-p)/n); 4 of them at most.
      const p = FISH_RTP / f.multiple;
      const se = f.multiple * Math.sqrt((p * (1 - p)) / n);
      expect(Math.abs(paid / n - FISH_RTP)).toBeLessThan(4 * se);
    }
  });
});
