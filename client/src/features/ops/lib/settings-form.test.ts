import { describe, expect, it } from 'vitest';
import { ZOpsSettings } from '@portal/contracts/api/ops';
import { parseBankForm, parseSettingsForm, type SettingsForm } from './settings-form';

const ok: SettingsForm = {
  depositMin: '100', depositMax: '50,000', withdrawMin: '200.50', withdrawMax: '50000', withdrawDailyMax: '100000', autoReceiveMinutes: '30',
};

describe('parseSettingsForm', () => {
  it('converts pesos to centavos', () => {
    expect(parseSettingsForm(ok)).toEqual({
      value: { depositMin: 10000, depositMax: 5000000, withdrawMin: 20050, withdrawMax: 5000000, withdrawDailyMax: 10000000, autoReceiveMinutes: 30 },
      errors: {},
    });
  });

  it('points at the field that breaks a rule', () => {
    expect(parseSettingsForm({ ...ok, depositMax: '99.99' }).errors).toEqual({ depositMax: 'below_min' });
    expect(parseSettingsForm({ ...ok, withdrawMax: '100' }).errors).toEqual({ withdrawMax: 'below_min' });
    expect(parseSettingsForm({ ...ok, withdrawDailyMax: '49999.99' }).errors).toEqual({ withdrawDailyMax: 'below_max' });
    expect(parseSettingsForm({ ...ok, depositMin: '-1', autoReceiveMinutes: '0' }).errors).toEqual({ depositMin: 'amount', autoReceiveMinutes: 'minutes' });
    expect(parseSettingsForm({ ...ok, autoReceiveMinutes: '10081' }).errors).toEqual({ autoReceiveMinutes: 'minutes' });
    expect(parseSettingsForm({ ...ok, autoReceiveMinutes: '1.5' }).value).toBeNull();
  });
});

describe('parseBankForm', () => {
  const bank = { bankName: ' BPI ', accountName: 'LP Gaming Corp.', accountNumber: '3141-5926 53' };
  it('trims a complete account; all empty removes it', () => {
    expect(parseBankForm(bank)).toEqual({ value: { bankName: 'BPI', accountName: 'LP Gaming Corp.', accountNumber: '3141-5926 53' }, errors: {} });
    expect(parseBankForm({ bankName: ' ', accountName: '', accountNumber: '' })).toEqual({ value: null, errors: {} });
  });
  it('points at a missing or malformed field, as the gateway would refuse it', () => {
    expect(parseBankForm({ ...bank, accountName: '' }).errors).toEqual({ accountName: 'required' });
    expect(parseBankForm({ ...bank, bankName: 'B' }).errors).toEqual({ bankName: 'name' });
    for (const n of ['12', '-1234', '1234#5', 'x'.repeat(35)]) {
      expect(parseBankForm({ ...bank, accountNumber: n }).errors).toEqual({ accountNumber: 'number' });
      expect(ZOpsSettings.shape.manualBank.safeParse({ ...bank, accountNumber: n }).success).toBe(false);
    }
    expect(ZOpsSettings.shape.manualBank.safeParse(parseBankForm(bank).value).success).toBe(true);
  });
});

describe('parseSettingsForm in đồng (VND, ISO 4217 exponent 0)', () => {
  const vnd: SettingsForm = { depositMin: '50,000', depositMax: '25000000', withdrawMin: '50000', withdrawMax: '25,000,000', withdrawDailyMax: '50,000,000', autoReceiveMinutes: '30' };
  it('reads whole đồng as the minor unit: 50,000 is 50000, not 5000000', () => {
    expect(parseSettingsForm(vnd, 0).value).toEqual({ depositMin: 50_000, depositMax: 25_000_000, withdrawMin: 50_000, withdrawMax: 25_000_000, withdrawDailyMax: 50_000_000, autoReceiveMinutes: 30 });
  });
  it('refuses a fraction of a đồng (not rounded), where pesos would take it', () => {
    expect(parseSettingsForm({ ...vnd, depositMin: '50000.5' }, 0).errors).toEqual({ depositMin: 'amount' });
    expect(parseSettingsForm({ ...vnd, depositMin: '100.00' }, 0).errors).toEqual({ depositMin: 'amount' });
  });
});
