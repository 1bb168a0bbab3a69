import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { exclusionEnd, fitsLimits, periodStart } from './rg-service.ts';

/**
 * Limit arithmetic against a model: the model walks the merchant's local calendar minute by minute
 * backwards from `now` (independent of periodStart's Date.UTC arithmetic) to find the period start.
 */
const MIN = 60_000;
function modelStart(now: number, period: 'day' | 'week' | 'month', offset: number): number {
  const local = (t: number) => new Date(t + offset * MIN);
  const same = (a: Date, b: Date) =>
    period === 'month' ? a.getUTCFullYear() === b.getUTCFullYear() && a.getUTCMonth() === b.getUTCMonth()
      : period === 'day' ? a.toISOString().slice(0, 10) === b.toISOString().slice(0, 10)
        // same ISO week: both share the Monday found by stepping back whole days
        : mondayOf(a) === mondayOf(b);
  const mondayOf = (d: Date) => { const x = new Date(d); while (x.getUTCDay() !== 1) x.setUTCDate(x.getUTCDate() - 1); return x.toISOString().slice(0, 10); };
  const n = local(now);
  // step back an hour at a time while still in the same period, then minute by minute
  let t = Math.floor(now / MIN) * MIN;
  while (same(local(t - 3600_000), n)) t -= 3600_000;
  while (same(local(t - MIN), n)) t -= MIN;
  return t;
}

const offsets = fc.constantFrom(-720, -300, -210, 0, 330, 345, 480, 525, 540, 840);
const instants = fc.integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2027, 11, 31) });

describe('RG period windows on the merchant calendar', () => {
  it('day, week and month starts equal the model (any GMT offset, half hours included)', () => {
    fc.assert(fc.property(instants, offsets, fc.constantFrom('day' as const, 'week' as const, 'month' as const), (now, off, period) => {
      expect(periodStart(new Date(now), period, off).getTime()).toBe(modelStart(now, period, off));
    }), { numRuns: 150 });
  });

  it('a window crosses midnight of the merchant, not UTC midnight', () => {
    // Manila (GMT+8): 2026-03-10 15:59 UTC is 23:59 local, 16:00 UTC is the next local day.
    expect(periodStart(new Date('2026-03-10T15:59:00Z'), 'day', 480).toISOString()).toBe('2026-03-09T16:00:00.000Z');
    expect(periodStart(new Date('2026-03-10T16:00:00Z'), 'day', 480).toISOString()).toBe('2026-03-10T16:00:00.000Z');
    // Sunday 23:30 local is still the week that began Monday; Monday 00:00 local starts a new one.
    expect(periodStart(new Date('2026-03-15T15:30:00Z'), 'week', 480).toISOString()).toBe('2026-03-08T16:00:00.000Z');
    expect(periodStart(new Date('2026-03-15T16:00:00Z'), 'week', 480).toISOString()).toBe('2026-03-15T16:00:00.000Z');
    expect(periodStart(new Date('2026-02-28T16:00:00Z'), 'month', 480).toISOString()).toBe('2026-02-28T16:00:00.000Z');
  });

  it('the lowest limit decides: a sequence of bets is accepted exactly while every limit holds (model: running sums)', () => {
    fc.assert(fc.property(
      fc.array(fc.integer({ min: 1, max: 10_000 }), { minLength: 1, maxLength: 3 }),
      fc.array(fc.integer({ min: 1, max: 3_000 }), { maxLength: 30 }),
      (limitValues, bets) => {
        const used = limitValues.map(() => 0);
        const min = Math.min(...limitValues);
        let total = 0;
        for (const b of bets) {
          const ok = fitsLimits(limitValues.map((limit, i) => ({ limit, used: used[i]! })), b);
          expect(ok).toBe(total + b <= min);
          if (ok) { total += b; used.forEach((_, i) => { used[i]! += b; }); }
          expect(total).toBeLessThanOrEqual(min);
        }
      }), { numRuns: 200 });
  });
});

describe('exclusion durations', () => {
  it('cooling-off and self-exclusion ends', () => {
    const t = new Date('2026-08-31T10:00:00Z');
    expect(exclusionEnd(t, '24h').toISOString()).toBe('2026-09-01T10:00:00.000Z');
    expect(exclusionEnd(t, '7d').toISOString()).toBe('2026-09-07T10:00:00.000Z');
    expect(exclusionEnd(t, '30d').toISOString()).toBe('2026-09-30T10:00:00.000Z');
    expect(exclusionEnd(t, '1y').toISOString()).toBe('2027-08-31T10:00:00.000Z');
    expect(exclusionEnd(t, '5y').toISOString()).toBe('2031-08-31T10:00:00.000Z');
    // six months from 31 August: JS month overflow lands in March (a calendar month count, at least 6 months)
    expect(exclusionEnd(t, '6m').getTime()).toBeGreaterThanOrEqual(Date.parse('2027-02-28T10:00:00Z'));
  });
});
