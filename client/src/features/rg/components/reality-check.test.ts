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

describe('the session limit notice', () => {
  it('counts its minutes in EN (1 minute, 4 minutes) and TY', async () => {
    const { i18n } = await import('../../../i18n/i18n');
    for (const lang of ['EN', 'TY'] as const) {
      await i18n.changeLanguage(lang);
      await i18n.loadNamespaces(['rg']);
    }
    const en = i18n.getFixedT('EN', 'rg');
    expect(en('rg_sl_text', { count: 1 })).toContain('ends in 1 minute,');
    expect(en('rg_sl_text', { count: 4 })).toContain('ends in 4 minutes,');
    expect(i18n.getFixedT('TY', 'rg')('rg_sl_text', { count: 4 })).toContain('sa loob ng 4 minuto');
    await i18n.changeLanguage('EN');
  });
});
