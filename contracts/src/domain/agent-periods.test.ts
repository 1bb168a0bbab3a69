import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PERIOD_TYPES, isPeriodClosed, nextPeriod, parsePeriodKey, periodOf, previousPeriod, type PeriodType } from './agent-periods.ts';

const MANILA = 480; // UTC+08:00, the brand default market
const iso = (d: Date) => d.toISOString();

describe('periodOf on the merchant calendar (examples worked by hand)', () => {
  // 2026-03-15T16:30Z is 00:30 on Monday 16 March 2026 in Manila.
  const t = new Date('2026-03-15T16:30:00Z');
  it.each<[PeriodType, string, string, string]>([
    ['fiveMinutes', 'F2026-03-16T00:30', '2026-03-15T16:30:00.000Z', '2026-03-15T16:35:00.000Z'],
    ['hourly', 'H2026-03-16T00', '2026-03-15T16:00:00.000Z', '2026-03-15T17:00:00.000Z'],
    ['daily', 'D2026-03-16', '2026-03-15T16:00:00.000Z', '2026-03-16T16:00:00.000Z'],
    ['weekly', 'W2026-03-16', '2026-03-15T16:00:00.000Z', '2026-03-22T16:00:00.000Z'],
    ['semiMonthly', 'S2026-03-2', '2026-03-15T16:00:00.000Z', '2026-03-31T16:00:00.000Z'],
    ['monthly', 'M2026-03', '2026-02-28T16:00:00.000Z', '2026-03-31T16:00:00.000Z'],
  ])('%s', (type, key, start, end) => {
    const p = periodOf(t, type, MANILA);
    expect([p.key, iso(p.start), iso(p.end)]).toEqual([key, start, end]);
  });

  it('is the previous day in UTC terms for the same instant at UTC and at UTC-09:30', () => {
    expect(periodOf(t, 'daily', 0).key).toBe('D2026-03-15');
    const p = periodOf(t, 'daily', -570); // 07:00 on 15 March at UTC-09:30
    expect([p.key, iso(p.start), iso(p.end)]).toEqual(['D2026-03-15', '2026-03-15T09:30:00.000Z', '2026-03-16T09:30:00.000Z']);
  });

  it('ends the second half of February on the 29th in a leap year and the 28th otherwise', () => {
    expect(iso(periodOf(new Date('2028-02-20T00:00:00Z'), 'semiMonthly', MANILA).end)).toBe('2028-02-29T16:00:00.000Z');
    expect(iso(periodOf(new Date('2027-02-20T00:00:00Z'), 'semiMonthly', MANILA).end)).toBe('2027-02-28T16:00:00.000Z');
    expect(periodOf(new Date('2026-03-15T15:59:59.999Z'), 'semiMonthly', MANILA).key).toBe('S2026-03-1'); // 23:59:59.999 on the 15th
  });

  it('starts a week on Monday across a year end', () => {
    // Thursday 1 January 2026 belongs to the week of Monday 29 December 2025.
    expect(periodOf(new Date('2026-01-01T04:00:00Z'), 'weekly', MANILA).key).toBe('W2025-12-29');
  });

  it('refuses an offset that does not exist and an invalid instant', () => {
    expect(() => periodOf(t, 'daily', 900)).toThrow(RangeError);
    expect(() => periodOf(t, 'daily', 1.5)).toThrow(RangeError);
    expect(() => periodOf(Number.NaN, 'daily', 0)).toThrow(RangeError);
  });
});

describe('parsePeriodKey', () => {
  it('reads back a key and refuses malformed or impossible ones', () => {
    expect(parsePeriodKey('S2026-03-2', 'semiMonthly', MANILA)?.start.toISOString()).toBe('2026-03-15T16:00:00.000Z');
    for (const [key, type] of [
      ['D2026-02-30', 'daily'], ['W2026-03-17', 'weekly'], ['F2026-03-16T00:07', 'fiveMinutes'], ['H2026-03-16T24', 'hourly'],
      ['S2026-03-3', 'semiMonthly'], ['M2026-13', 'monthly'], ['M2026-00', 'monthly'], ['D2026-03-16', 'monthly'], ['', 'daily'],
    ] as const) {
      expect(parsePeriodKey(key, type, MANILA), key).toBeNull();
    }
  });
});

describe('isPeriodClosed', () => {
  it('is true only once the end has passed', () => {
    const p = periodOf(new Date('2026-03-15T16:30:00Z'), 'hourly', MANILA);
    expect(isPeriodClosed(p, p.start)).toBe(false);
    expect(isPeriodClosed(p, p.end.getTime() - 1)).toBe(false);
    expect(isPeriodClosed(p, p.end)).toBe(true);
  });
});

describe('period properties', () => {
  const instant = fc.integer({ min: Date.UTC(1971, 0, 1), max: Date.UTC(2099, 11, 1) });
  const offset = fc.integer({ min: -720, max: 840 });
  const type = fc.constantFrom(...PERIOD_TYPES);
  const DURATION_MS: Record<PeriodType, [number, number]> = {
    fiveMinutes: [300_000, 300_000], hourly: [3_600_000, 3_600_000], daily: [86_400_000, 86_400_000],
    weekly: [7 * 86_400_000, 7 * 86_400_000], semiMonthly: [13 * 86_400_000, 16 * 86_400_000], monthly: [28 * 86_400_000, 31 * 86_400_000],
  };

  it('every instant lies in its period, whose bounds map to the same key, with a sane length', () => {
    fc.assert(fc.property(instant, type, offset, (t, ty, off) => {
      const p = periodOf(t, ty, off);
      expect(p.start.getTime()).toBeLessThanOrEqual(t);
      expect(p.end.getTime()).toBeGreaterThan(t);
      expect(periodOf(p.start, ty, off)).toEqual(p);
      expect(periodOf(p.end.getTime() - 1, ty, off)).toEqual(p);
      const length = p.end.getTime() - p.start.getTime();
      const [min, max] = DURATION_MS[ty];
      expect(length).toBeGreaterThanOrEqual(min);
      expect(length).toBeLessThanOrEqual(max);
    }), { numRuns: 2000 });
  });

  it('consecutive periods touch, keys grow in time order and read back', () => {
    fc.assert(fc.property(instant, type, offset, (t, ty, off) => {
      const p = periodOf(t, ty, off);
      const n = nextPeriod(p, off);
      const b = previousPeriod(p, off);
      expect(n.start).toEqual(p.end);
      expect(b.end).toEqual(p.start);
      expect(b.key < p.key && p.key < n.key).toBe(true);
      expect(parsePeriodKey(p.key, ty, off)).toEqual(p);
    }), { numRuns: 2000 });
  });

  it('a walk of consecutive periods covers a span exactly once: every instant in it finds its own period in the walk', () => {
    fc.assert(fc.property(instant, fc.constantFrom<PeriodType>('fiveMinutes', 'hourly', 'daily', 'semiMonthly'), offset, fc.array(fc.integer({ min: 0, max: 20 * 86_400_000 }), { minLength: 1, maxLength: 20 }), (t, ty, off, deltas) => {
      const walk = [periodOf(t, ty, off)];
      const horizon = t + 20 * 86_400_000;
      while (walk.at(-1)!.end.getTime() <= horizon && walk.length < 10_000) walk.push(nextPeriod(walk.at(-1)!, off));
      for (const d of deltas) {
        const at = t + d;
        if (at >= walk.at(-1)!.end.getTime()) continue;
        const containing = walk.filter((w) => w.start.getTime() <= at && at < w.end.getTime());
        expect(containing).toHaveLength(1);
        expect(containing[0]!.key).toBe(periodOf(at, ty, off).key);
      }
    }), { numRuns: 200 });
  });
});
