import { describe, expect, it } from 'vitest';
import { ZRequestId } from '@portal/contracts/api/cashier';
import { newRequestId, parseAmountMinor } from './money-input';

describe('parseAmountMinor', () => {
  it('reads whole and decimal amounts with separators as centavos', () => {
    expect(parseAmountMinor('1500')).toBe(150000);
    expect(parseAmountMinor(' 1,234.5 ')).toBe(123450);
    expect(parseAmountMinor('0.01')).toBe(1);
  });
  it('refuses what is not a plain amount', () => {
    for (const bad of ['', 'abc', '-5', '1.234', '1e3', '.5']) expect(parseAmountMinor(bad)).toBeNull();
  });
  it('makes request ids the contract accepts', () => {
    expect(ZRequestId.safeParse(newRequestId()).success).toBe(true);
  });
});
