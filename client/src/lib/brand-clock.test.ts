import { describe, expect, it } from 'vitest';
import { brandClock, gmtLabel } from './brand-clock';

describe('agent header clock', () => {
  it('labels the offset', () => {
    expect(gmtLabel(480)).toBe('GMT+8');
    expect(gmtLabel(-210)).toBe('GMT-3:30');
    expect(gmtLabel(0)).toBe('GMT+0');
  });
  it('shows the brand time', () => {
    expect(brandClock(Date.UTC(2024, 0, 31, 20, 5, 9), 480)).toBe('2024-02-01 04:05:09');
  });
});
