import { describe, expect, it } from 'vitest';
import { parsePesos, toPesosInput } from './money-input';

describe('parsePesos', () => {
  it('converts pesos with up to 2 decimals to centavos', () => {
    expect(parsePesos('100')).toBe(10000);
    expect(parsePesos('100.5')).toBe(10050);
    expect(parsePesos('100.05')).toBe(10005);
    expect(parsePesos('0.01')).toBe(1);
    expect(parsePesos('.5')).toBe(50);
    expect(parsePesos('1,234,567.89')).toBe(123456789);
    expect(parsePesos(' 12. ')).toBe(1200);
  });

  it('avoids floating point error', () => {
    expect(parsePesos('0.29')).toBe(29);
    expect(parsePesos('1.15')).toBe(115);
    expect(parsePesos('4.35')).toBe(435);
  });

  it('allows a sign only when signed', () => {
    expect(parsePesos('-20')).toBeNull();
    expect(parsePesos('-20', { signed: true })).toBe(-2000);
    expect(parsePesos('-0.75', { signed: true })).toBe(-75);
    expect(parsePesos('+3', { signed: true })).toBe(300);
  });

  it('refuses junk, too many decimals and zero', () => {
    for (const bad of ['', ' ', 'abc', '1.234', '1e3', '--1', '1.2.3', '0x10', '.', '-']) expect(parsePesos(bad, { signed: true })).toBeNull();
    expect(parsePesos('0')).toBeNull();
    expect(parsePesos('-0.00', { signed: true })).toBeNull();
    expect(parsePesos('0', { allowZero: true })).toBe(0);
  });
});

describe('toPesosInput', () => {
  it('round-trips with parsePesos', () => {
    for (const n of [1, 50, 10000, 123456789, -2500]) expect(parsePesos(toPesosInput(n), { signed: true })).toBe(n);
    expect(toPesosInput(10005)).toBe('100.05');
  });
});

describe('parsePesos / toPesosInput with the đồng (VND, exponent 0)', () => {
  it('reads whole đồng, signed for a debit, and refuses any decimals', () => {
    expect(parsePesos('50,000', { exponent: 0 })).toBe(50_000);
    expect(parsePesos('-20,000', { signed: true, exponent: 0 })).toBe(-20_000);
    for (const bad of ['12.5', '1.00', '.5', '0']) expect(parsePesos(bad, { exponent: 0 })).toBeNull();
    expect(toPesosInput(1_234_567, 0)).toBe('1234567');
  });
});
