import { describe, expect, it } from 'vitest';
import { formatMinor } from '@portal/contracts/domain/money';
import { ApiError } from '../../../lib/api';
import { i18n } from '../../../i18n/i18n';
import { depositErrorMessage } from './deposit-panel';

const money = (m: number) => formatMinor(m, '₱');
const refused = (value: unknown) => new ApiError('RG_LIMIT_REACHED', 'This would go beyond a responsible gaming limit you set', 403, [], value);

describe('a deposit refused by a limit the player set says which limit and what is left', () => {
  it('names the period, the limit, what is taken (paid and pending) and what may still be deposited', () => {
    expect(depositErrorMessage(refused({ kind: 'deposit', period: 'day', limit: 1000_00, used: 600_00 }), money)).toEqual({
      key: 'wallet:deposit_rg_limit_day', values: { limit: '₱1,000.00', used: '₱600.00', left: '₱400.00' },
    });
    expect(depositErrorMessage(refused({ kind: 'deposit', period: 'month', limit: 500_00, used: 700_00 }), money).values).toMatchObject({ left: '₱0.00' });
  });

  it('reads in EN and TY', async () => {
    const m = depositErrorMessage(refused({ kind: 'deposit', period: 'week', limit: 1000_00, used: 250_00 }), money);
    await i18n.loadNamespaces('wallet');
    await i18n.changeLanguage('EN');
    expect(i18n.t(m.key, m.values)).toBe('This is over your weekly deposit limit of ₱1,000.00: ₱250.00 is already deposited or waiting for payment this week, so you can deposit up to ₱750.00 more this week.');
    await i18n.changeLanguage('TY');
    expect(i18n.t(m.key, m.values)).toContain('lingguhang limitasyon sa deposito na ₱1,000.00');
    expect(i18n.t(m.key, m.values)).toContain('hanggang ₱750.00 pa');
    await i18n.changeLanguage('EN');
  });

  it('any other refusal (or a limit value it cannot read) keeps the general message of its code', () => {
    expect(depositErrorMessage(refused(undefined), money)).toEqual({ key: 'common:error_RG_LIMIT_REACHED' });
    expect(depositErrorMessage(new ApiError('RG_EXCLUDED', 'x', 403), money)).toEqual({ key: 'common:error_RG_EXCLUDED' });
  });
});
