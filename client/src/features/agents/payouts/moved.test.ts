import { describe, expect, it } from 'vitest';
import { movedOf } from './screens';

describe('what a payout moved, per side', () => {
  it('counts the amount when it was funded, and each side its adjustments', () => {
    const paid = { amount: 20_000, funded: true, adjustedAmount: 0, payerAdjustedAmount: 0 };
    expect(movedOf(paid, 'received')).toBe(20_000);
    expect(movedOf(paid, 'paid')).toBe(20_000);
    // a house-funded centavo on top: the payee got it, the payer did not pay it
    const houseCent = { amount: 31, funded: true, adjustedAmount: 1, payerAdjustedAmount: 0 };
    expect([movedOf(houseCent, 'received'), movedOf(houseCent, 'paid')]).toEqual([32, 31]);
    // unfunded (the payer could not pay), then settled by an adjustment of 250,000 (200,000 from the payer):
    // the amount never moved, so it is not counted again (it read 450,000 and 400,000)
    const settled = { amount: 200_000, funded: false, adjustedAmount: 250_000, payerAdjustedAmount: 200_000 };
    expect([movedOf(settled, 'received'), movedOf(settled, 'paid')]).toEqual([250_000, 200_000]);
  });
});
