import { describe, expect, it } from 'vitest';
import { isConfirmable } from './rg-panel';

describe('a requested limit increase', () => {
  it('offers Confirm only once it may apply (24 hours after the request), never before or without one', () => {
    const from = '2026-12-06T13:31:00.000Z';
    expect(isConfirmable(from, Date.parse('2026-12-05T13:31:00.000Z'))).toBe(false);
    expect(isConfirmable(from, Date.parse(from) - 1)).toBe(false);
    expect(isConfirmable(from, Date.parse(from))).toBe(true);
    expect(isConfirmable(from, Date.parse('2026-12-07T00:00:00.000Z'))).toBe(true);
    expect(isConfirmable(null, Date.now())).toBe(false);
  });
});
