import { beforeAll, describe, expect, it } from 'vitest';
import { periodOf, PERIOD_TYPES } from '@portal/contracts/domain/agent-periods';
import { i18n } from '../../../i18n/i18n';
import { periodLabel } from './period-label';

beforeAll(async () => {
  for (const lang of ['TY', 'EN']) {
    await i18n.changeLanguage(lang);
    await i18n.loadNamespaces(['agents']);
  }
});

describe('periodLabel', () => {
  it('names every kind of period in EN', () => {
    const t = i18n.getFixedT('EN');
    expect(periodLabel(t, 'D2026-12-04')).toBe('2026-12-04');
    expect(periodLabel(t, 'W2026-11-30')).toBe('2026-11-30 to 2026-12-06');
    expect(periodLabel(t, 'S2026-02-1')).toBe('2026-02-01 to 2026-02-15');
    expect(periodLabel(t, 'S2028-02-2')).toBe('2028-02-16 to 2028-02-29');
    expect(periodLabel(t, 'M2026-12')).toBe('2026-12-01 to 2026-12-31');
    expect(periodLabel(t, 'H2026-12-04T23')).toBe('2026-12-04, 23:00–00:00');
    expect(periodLabel(t, 'F2026-12-04T13:55')).toBe('2026-12-04, 13:55–14:00');
    expect(periodLabel(t, 'odd')).toBe('odd');
  });

  it('in TY', () => {
    const t = i18n.getFixedT('TY');
    expect(periodLabel(t, 'W2026-11-30')).toBe('2026-11-30 hanggang 2026-12-06');
    expect(periodLabel(t, 'H2026-12-04T13')).toBe('2026-12-04, 13:00 hanggang 14:00');
  });

  it('never shows a raw code for a key the server builds', () => {
    const t = i18n.getFixedT('EN');
    for (const type of PERIOD_TYPES) {
      const key = periodOf(Date.UTC(2026, 11, 4, 13, 7), type, 480).key;
      expect([type, periodLabel(t, key)]).not.toEqual([type, key]);
      expect(periodLabel(t, key)).toMatch(/^\d{4}-\d{2}-\d{2}/);
    }
  });
});
