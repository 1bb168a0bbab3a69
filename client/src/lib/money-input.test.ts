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

describe('parseAmountMinor with the merchant exponent', () => {
  it('VND (exponent 0): whole đồng are the minor unit; 12.5 is refused, not rounded', () => {
    expect(parseAmountMinor('50,000', 0)).toBe(50_000);
    expect(parseAmountMinor('1500', 0)).toBe(1500);
    for (const bad of ['12.5', '12.0', '500.50', '.5', '-5']) expect(parseAmountMinor(bad, 0)).toBeNull();
  });
  it('PHP (exponent 2) as before', () => {
    expect(parseAmountMinor('500.50', 2)).toBe(50_050);
  });
});
