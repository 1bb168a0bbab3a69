import { describe, expect, it } from 'vitest';
import { pastDays } from '../../../lib/date-range';
import { activeShortcut, orderRange, REPORT_SHORTCUTS } from './report-range';

// 2026-03-01 17:30 UTC: already 2026-03-02 in GMT+8, still 2026-03-01 in GMT-5.
const NOW = Date.UTC(2026, 2, 1, 17, 30);

describe('agent report date range', () => {
  it('offers today, past 7 and past 30 days', () => {
    expect(REPORT_SHORTCUTS).toEqual([1, 7, 30]);
  });

  it('today is the merchant calendar day, not the browser one', () => {
    expect(pastDays(1, 480, NOW)).toEqual({ from: '2026-03-02', to: '2026-03-02' });
    expect(pastDays(1, -300, NOW)).toEqual({ from: '2026-03-01', to: '2026-03-01' });
    expect(pastDays(7, 480, NOW)).toEqual({ from: '2026-02-24', to: '2026-03-02' });
  });

  it('recognises which shortcut a range is, custom ranges none', () => {
    expect(activeShortcut({ from: '2026-03-02', to: '2026-03-02' }, 480, NOW)).toBe(1);
    expect(activeShortcut({ from: '2026-02-24', to: '2026-03-02' }, 480, NOW)).toBe(7);
    expect(activeShortcut(pastDays(30, 480, NOW), 480, NOW)).toBe(30);
    // the same dates are "today" only on the calendar where it is that day
    expect(activeShortcut({ from: '2026-03-02', to: '2026-03-02' }, -300, NOW)).toBeUndefined();
    expect(activeShortcut({ from: '2026-02-20', to: '2026-03-02' }, 480, NOW)).toBeUndefined();
  });

  it('orders the ends of a custom range', () => {
    expect(orderRange({ from: '2026-03-05', to: '2026-03-01' })).toEqual({ from: '2026-03-01', to: '2026-03-05' });
    expect(orderRange({ from: '2026-03-01', to: '2026-03-05' })).toEqual({ from: '2026-03-01', to: '2026-03-05' });
  });
});
