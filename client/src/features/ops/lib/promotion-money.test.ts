import { describe, expect, it } from 'vitest';
import { promotionMoneyForm, promotionMoneyOf } from './promotion-money';

describe('promotion money terms: pesos in the form, centavos to the API', () => {
  it('reads pesos (with centavos) as minor units', () => {
    expect(promotionMoneyOf({ rewardAmount: '100', rewardCap: '1,250.50', minDeposit: '0.5' }))
      .toEqual({ ok: true, value: { rewardAmount: 10_000, rewardCap: 125_050, minDeposit: 50 } });
  });
  it('allows zero reward and minimum deposit, an empty cap is no cap', () => {
    expect(promotionMoneyOf({ rewardAmount: '0', rewardCap: ' ', minDeposit: '0.00' }))
      .toEqual({ ok: true, value: { rewardAmount: 0, rewardCap: null, minDeposit: 0 } });
  });
  it('names every field that is not a peso amount', () => {
    expect(promotionMoneyOf({ rewardAmount: '10.005', rewardCap: '0', minDeposit: '-5' })).toEqual({ ok: false, bad: ['rewardAmount', 'rewardCap', 'minDeposit'] });
    expect(promotionMoneyOf({ rewardAmount: 'abc', rewardCap: '', minDeposit: '1' })).toEqual({ ok: false, bad: ['rewardAmount'] });
  });
  it('shows stored centavos as pesos for editing, and reads them back unchanged', () => {
    const stored = { rewardAmount: 8_800, rewardCap: 50_000, minDeposit: 10_050 };
    const form = promotionMoneyForm(stored);
    expect(form).toEqual({ rewardAmount: '88.00', rewardCap: '500.00', minDeposit: '100.50' });
    expect(promotionMoneyOf(form)).toEqual({ ok: true, value: stored });
    expect(promotionMoneyForm(null)).toEqual({ rewardAmount: '0.00', rewardCap: '', minDeposit: '0.00' });
  });
});

describe('promotion money terms in đồng (VND, exponent 0)', () => {
  it('reads whole đồng as minor units and shows them back without decimals', () => {
    expect(promotionMoneyOf({ rewardAmount: '50,000', rewardCap: '250000', minDeposit: '0' }, 0))
      .toEqual({ ok: true, value: { rewardAmount: 50_000, rewardCap: 250_000, minDeposit: 0 } });
    expect(promotionMoneyForm({ rewardAmount: 50_000, rewardCap: 250_000, minDeposit: 0 }, 0)).toEqual({ rewardAmount: '50000', rewardCap: '250000', minDeposit: '0' });
  });
  it('refuses 12.5 đồng (no minor unit in use), and what PHP took as centavos', () => {
    expect(promotionMoneyOf({ rewardAmount: '12.5', rewardCap: '1,250.50', minDeposit: '0.00' }, 0)).toEqual({ ok: false, bad: ['rewardAmount', 'rewardCap', 'minDeposit'] });
  });
});
