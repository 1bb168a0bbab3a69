import { describe, expect, it } from 'vitest';
import { currencyExponent, formatMinor, minorPerMajor, parseMajor, scaleCentavos, toMajorInput } from './money.ts';

describe('currencyExponent (ISO 4217 minor units)', () => {
  it('knows the peso and the đồng', () => {
    expect(currencyExponent('PHP')).toBe(2);
    expect(currencyExponent('VND')).toBe(0);
    expect(currencyExponent('vnd')).toBe(0);
  });
  it('follows ISO where Intl differs, else Intl, else 2', () => {
    expect(currencyExponent('IDR')).toBe(2);
    expect(currencyExponent('BHD')).toBe(3);
    expect(currencyExponent('THB')).toBe(2);
    expect(currencyExponent('')).toBe(2);
    expect(currencyExponent(null)).toBe(2);
    expect(currencyExponent('not a code')).toBe(2);
  });
  it('gives the minor units of one major unit', () => {
    expect(minorPerMajor(currencyExponent('PHP'))).toBe(100);
    expect(minorPerMajor(currencyExponent('VND'))).toBe(1);
  });
});

describe('formatMinor', () => {
  it('PHP: 2 decimals, as before', () => {
    expect(formatMinor(123456789, '₱', 2)).toBe('₱1,234,567.89');
    expect(formatMinor(5, '', currencyExponent('PHP'))).toBe('0.05');
    expect(formatMinor(-100050, '₱')).toBe('-₱1,000.50');
  });
  it('VND: whole đồng, no decimals', () => {
    const e = currencyExponent('VND');
    expect(formatMinor(1000, '₫', e)).toBe('₫1,000');
    expect(formatMinor(50_000, '₫', e)).toBe('₫50,000');
    expect(formatMinor(0, '₫', e)).toBe('₫0');
    expect(formatMinor(-1_234_567, '₫', e)).toBe('-₫1,234,567');
  });
});

describe('parseMajor', () => {
  it('PHP: up to 2 decimals, in centavos', () => {
    expect(parseMajor('1,234.5')).toBe(123450);
    expect(parseMajor('0.29', { exponent: 2 })).toBe(29);
    expect(parseMajor('1.234', { exponent: 2 })).toBeNull();
  });
  it('commas group thousands in their places only: a decimal comma is refused, not read as 10x or 100x', () => {
    for (const bad of ['1,5', '10,00', '1,50', '1,2345', ',500', '1,000,0', '1,,000', '1000,000', '1,000.5,0']) {
      expect(parseMajor(bad, { exponent: 2, signed: true }), bad).toBeNull();
    }
    expect(parseMajor('1,000')).toBe(100_000);
    expect(parseMajor('12,345,678.90')).toBe(1_234_567_890);
    expect(parseMajor('-1,500.25', { signed: true })).toBe(-150_025);
    expect(parseMajor('+1,500', { signed: true })).toBe(150_000);
    expect(parseMajor('1,000.', { bareDot: true })).toBe(100_000);
  });
  it('VND: whole đồng; a fraction is refused, not rounded', () => {
    const exponent = currencyExponent('VND');
    expect(parseMajor('50,000', { exponent })).toBe(50_000);
    expect(parseMajor('1500', { exponent })).toBe(1500);
    for (const bad of ['12.5', '12.0', '12.', '.5', '1e3', '-5', '', 'abc', '50.000']) expect(parseMajor(bad, { exponent })).toBeNull();
    expect(parseMajor('12.', { exponent, bareDot: true })).toBe(12);
    expect(parseMajor('-20,000', { exponent, signed: true })).toBe(-20_000);
    expect(parseMajor('0', { exponent })).toBeNull();
    expect(parseMajor('0', { exponent, allowZero: true })).toBe(0);
  });
  it('round-trips with toMajorInput', () => {
    for (const n of [1, 50, 10000, 123456789, -2500]) {
      expect(parseMajor(toMajorInput(n, 2), { exponent: 2, signed: true })).toBe(n);
      expect(parseMajor(toMajorInput(n, 0), { exponent: 0, signed: true })).toBe(n);
    }
    expect(toMajorInput(10005, 2)).toBe('100.05');
    expect(toMajorInput(50_000, 0)).toBe('50000');
  });
});

describe('scaleCentavos (built-in amounts per currency)', () => {
  it('leaves pesos alone and gives đồng at ₱1 = ₫500', () => {
    expect(scaleCentavos(100_00, 'PHP')).toBe(100_00);
    expect(scaleCentavos(100_00, 'VND')).toBe(50_000);
    expect(scaleCentavos(1_00, 'VND')).toBe(500);
  });
  it('keeps the major amount for a currency without a rate', () => {
    expect(scaleCentavos(100_00, 'USD')).toBe(100_00);
    expect(scaleCentavos(100_00, 'JPY')).toBe(100);
  });
});
