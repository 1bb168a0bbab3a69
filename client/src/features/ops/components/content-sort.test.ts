import { describe, expect, it } from 'vitest';
import { sortOf } from './content-page';

describe('the order typed in a content form', () => {
  it('is 0 when empty and the whole number typed, within the server bounds', () => {
    expect(sortOf('')).toBe(0);
    expect(sortOf('  ')).toBe(0);
    expect(sortOf('12')).toBe(12);
    expect(sortOf(' -3 ')).toBe(-3);
    expect(sortOf('10000')).toBe(10_000);
    expect(sortOf('-10000')).toBe(-10_000);
  });
  it('is refused (null) for anything else instead of being saved as 0', () => {
    for (const bad of ['abc', '1.5', '1e3', '10001', '-10001', '12abc', '0x10', '--1']) expect(sortOf(bad)).toBeNull();
  });
});
