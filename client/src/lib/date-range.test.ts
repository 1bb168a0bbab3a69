import { describe, expect, it } from 'vitest';
import { pastDays, ymd } from './date-range';

describe('date range shortcuts', () => {
  it('counts today as one of the past days', () => {
    const today = new Date(2026, 10, 22);
    expect(pastDays(7, today)).toEqual({ from: '2026-11-16', to: '2026-11-22' });
    expect(pastDays(30, today)).toEqual({ from: '2026-10-24', to: '2026-11-22' });
    expect(pastDays(1, today)).toEqual({ from: '2026-11-22', to: '2026-11-22' });
  });
  it('formats local dates as yyyy-MM-dd across month and year ends', () => {
    expect(ymd(new Date(2026, 0, 5))).toBe('2026-01-05');
    expect(pastDays(7, new Date(2027, 0, 3))).toEqual({ from: '2026-12-28', to: '2027-01-03' });
  });
});
