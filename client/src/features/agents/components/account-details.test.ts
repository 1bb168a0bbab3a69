import { describe, expect, it } from 'vitest';
import { i18n } from '../../../i18n/i18n';
import { recordKindName } from '../../../lib/code-labels';
import { MEM_TRANS_TYPES } from './account-details';

describe('account details type filter', () => {
  it('names every kind it offers in EN and TY (a contract payout read "Other")', async () => {
    for (const lang of ['EN', 'TY'] as const) {
      await i18n.changeLanguage(lang);
      await i18n.loadNamespaces(['agent-office', 'wallet']);
      const t = i18n.getFixedT(lang, 'agent-office');
      const other = t('wallet:record_kind_other');
      const names = MEM_TRANS_TYPES.map((k) => t(`trans.kind_${k}`, { defaultValue: recordKindName(t, k) }));
      expect(names.filter((n) => n === other || /kind_/.test(n)), lang).toEqual([]);
      expect(new Set(names).size, lang).toBe(names.length);
    }
    await i18n.changeLanguage('EN');
  });
});
