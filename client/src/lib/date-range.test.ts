import { describe, expect, it } from 'vitest';
import { pastDays, ymd, searchedRange } from './date-range';
import { formatDateTime } from './use-money';

const PH = 8 * 60; // the demo merchant's clock, UTC+8

describe('date range shortcuts', () => {
  it('counts today as one of the past days', () => {
    const now = Date.UTC(2026, 10, 22, 4); // noon in Manila
    expect(pastDays(7, PH, now)).toEqual({ from: '2026-11-16', to: '2026-11-22' });
    expect(pastDays(30, PH, now)).toEqual({ from: '2026-10-24', to: '2026-11-22' });
    expect(pastDays(1, PH, now)).toEqual({ from: '2026-11-22', to: '2026-11-22' });
  });
  it("takes today from the merchant's clock, not the browser's", () => {
    // 16:30 UTC on the 23rd is already the 24th in Manila (and still the 23rd in a UTC browser)
    const now = Date.UTC(2026, 10, 23, 16, 30);
    expect(pastDays(1, PH, now)).toEqual({ from: '2026-11-24', to: '2026-11-24' });
    expect(pastDays(1, 0, now)).toEqual({ from: '2026-11-23', to: '2026-11-23' });
    // 07:00 UTC on the 1st is still the last of the month in a merchant at UTC-8
    expect(pastDays(2, -8 * 60, Date.UTC(2026, 11, 1, 7))).toEqual({ from: '2026-11-29', to: '2026-11-30' });
  });
  it('formats dates as yyyy-MM-dd across month and year ends', () => {
    expect(ymd(new Date(Date.UTC(2026, 0, 5)))).toBe('2026-01-05');
    expect(pastDays(7, PH, Date.UTC(2027, 0, 3, 2))).toEqual({ from: '2026-12-28', to: '2027-01-03' });
  });
  it("shows list times on the merchant's clock, the one the ranges use", () => {
    expect(formatDateTime('2026-11-23T16:14:00.000Z', PH)).toBe('2026-11-24 00:14');
    expect(formatDateTime('2026-11-23T16:14:00.000Z', 0)).toBe('2026-11-23 16:14');
    expect(formatDateTime('2026-12-31T23:59:00.000Z', -300)).toBe('2026-12-31 18:59');
    expect(formatDateTime('not a date', PH)).toBe('not a date');
  });
});

describe('searchedRange (what the records calls search)', () => {
  it('keeps a range of up to 90 days, ordered', () => {
    expect(searchedRange({ from: '2026-09-09', to: '2026-12-07' })).toEqual({ from: '2026-09-09', to: '2026-12-07' });
    expect(searchedRange({ from: '2026-12-07', to: '2026-12-01' })).toEqual({ from: '2026-12-01', to: '2026-12-07' });
  });

  it('moves the start of a longer range to the 90th day before its end, as the server searches it', () => {
    expect(searchedRange({ from: '2025-01-01', to: '2026-12-07' })).toEqual({ from: '2026-09-09', to: '2026-12-07' });
    expect(searchedRange({ from: '2026-09-08', to: '2026-12-07' })).toEqual({ from: '2026-09-09', to: '2026-12-07' });
  });
});
