import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api';
import { i18n } from '../../../i18n/i18n';
import { pvpJoinErrorKey } from './pvp-join';

describe('a refused Lucky 9 join', () => {
  it('says the seats closed or filled, join the next round (it read "not allowed right now"); other refusals by their code', async () => {
    // the TY texts loaded here (they are loaded for the current language only)
    await i18n.changeLanguage('TY');
    await i18n.loadNamespaces(['house', 'common']);
    await i18n.changeLanguage('EN');
    expect(pvpJoinErrorKey(new ApiError('INVALID_STATE', 'The table is dealing; join the next round', 409))).toBe('house:pvp_join_missed');
    expect(i18n.getFixedT('TY')('house:pvp_join_missed')).toContain('susunod na round');
    expect(pvpJoinErrorKey(new ApiError('INSUFFICIENT_FUNDS', 'x', 409))).toBe('common:error_INSUFFICIENT_FUNDS');
  });
});
