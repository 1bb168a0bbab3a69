import { describe, expect, it } from 'vitest';
import { nextReminderAt } from './reality-check';

describe('reality check schedule', () => {
  it('counts from the session start in steps of the chosen minutes', () => {
    const start = Date.parse('2026-03-10T10:00:00Z');
    expect(new Date(nextReminderAt(start, 30, start)).toISOString()).toBe('2026-03-10T10:30:00.000Z');
    expect(new Date(nextReminderAt(start, 30, start + 29 * 60_000)).toISOString()).toBe('2026-03-10T10:30:00.000Z');
    expect(new Date(nextReminderAt(start, 30, start + 30 * 60_000)).toISOString()).toBe('2026-03-10T11:00:00.000Z');
    expect(new Date(nextReminderAt(start, 15, start + 61 * 60_000)).toISOString()).toBe('2026-03-10T11:15:00.000Z');
  });
});
