import { useCallback, useMemo } from 'react';
import { currencyExponent, formatMinor, parseMajor, scaleCentavos, toMajorInput, type ParseMajorOptions } from '@portal/contracts/domain/money';
import type { FieldMessage } from './field-message';
import { merchantClock } from '@portal/contracts/domain/clock';
import { useWhitelabel } from './whitelabel';

/** The merchant's currency as the money helpers need it (PHP's exponent until the brand is known). */
export type Currency = {
  /** ISO 4217 code ('PHP', 'VND'). */
  code: string;
  symbol: string;
  /** Decimals of the minor unit (ISO 4217): 2 for PHP, 0 for VND. */
  exponent: number;
};

export function useCurrency(): Currency {
  const brand = useWhitelabel().data?.brand;
  const code = brand?.currency ?? 'PHP';
  const symbol = brand?.currencySymbol ?? '';
  return useMemo(() => ({ code, symbol, exponent: currencyExponent(code) }), [code, symbol]);
}

/** Formats minor units with the brand's currency symbol and its decimals (₱1,000.50; ₫1,000). */
export function useMoney(): (minor: number) => string {
  const { symbol, exponent } = useCurrency();
  return useCallback((minor: number) => formatMinor(minor, symbol, exponent), [symbol, exponent]);
}

/** Formats minor units without the symbol (the operator console's amount columns), with the currency's decimals. */
export function useAmount(): (minor: number) => string {
  const { exponent } = useCurrency();
  return useCallback((minor: number) => formatMinor(minor, '', exponent), [exponent]);
}

/**
 * Example amounts for form texts and hints: a built-in peso amount (centavos) in the merchant's currency
 * at the demo rate (scaleCentavos), written with its decimals: 500_00 -> '500.00' (PHP), '250,000' (VND);
 * `whole` drops a zero fraction ('500').
 */
export function useMoneyExample(): (centavos: number, opts?: { whole?: boolean }) => string {
  const { code, exponent } = useCurrency();
  return useCallback((centavos: number, opts: { whole?: boolean } = {}) => {
    const text = formatMinor(scaleCentavos(centavos, code), '', exponent);
    return opts.whole ? text.replace(/\.0+$/, '') : text;
  }, [code, exponent]);
}

/** The i18next context of a text about decimals: 'whole' for a currency without a minor unit in use (VND), else none. */
export const decimalsContext = (exponent: number): 'whole' | undefined => (exponent === 0 ? 'whole' : undefined);

/** The player's 'not an amount' message, with examples the currency can hold ('500 or 500.50'; '250,000'). */
export function useAmountInvalid(): FieldMessage {
  const { exponent } = useCurrency();
  const example = useMoneyExample();
  return useMemo(() => ({
    key: exponent === 0 ? 'wallet:amount_invalid_whole' : 'wallet:amount_invalid',
    values: { a: example(500_00, { whole: true }), b: example(500_50) },
  }), [exponent, example]);
}

/**
 * Typed major units -> minor units with the merchant's decimals, and back to a form's input text
 * (the operator forms: promotions, missions, envelopes, adjustments, settings, points).
 */
export function useMoneyInput(): { exponent: number; parse: (text: string, opts?: Omit<ParseMajorOptions, 'exponent'>) => number | null; toInput: (minor: number) => string } {
  const { exponent } = useCurrency();
  return useMemo(() => ({
    exponent,
    parse: (text: string, opts: Omit<ParseMajorOptions, 'exponent'> = {}) => parseMajor(text, { ...opts, exponent }),
    toInput: (minor: number) => toMajorInput(minor, exponent),
  }), [exponent]);
}

/**
 * A date-time for lists: on the merchant's clock when `offsetMinutes` (east of UTC) is given, the
 * same clock the record pages' date ranges use; otherwise in the viewer's time zone. `seconds`: with
 * them (the operator console's dense, sortable times).
 */
export function formatDateTime(iso: string, offsetMinutes?: number, opts: { seconds?: boolean } = {}): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number) => String(n).padStart(2, '0');
  const sec = (n: number) => (opts.seconds ? `:${p(n)}` : '');
  if (offsetMinutes === undefined) {
    return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}${sec(d.getSeconds())}`;
  }
  const b = merchantClock(offsetMinutes, d.getTime());
  return `${b.getUTCFullYear()}-${p(b.getUTCMonth() + 1)}-${p(b.getUTCDate())} ${p(b.getUTCHours())}:${p(b.getUTCMinutes())}${sec(b.getUTCSeconds())}`;
}

/** formatDateTime on the merchant's clock (brand GMT offset; the viewer's own until it is known). */
export function useDateTime(): (iso: string) => string {
  const offset = useWhitelabel().data?.brand.gmtOffsetMinutes;
  return useCallback((iso: string) => formatDateTime(iso, offset), [offset]);
}

/** The colour class of a signed amount: money in, money out, or none for zero (₱0.00 read as a gain). */
export const amountToneClass = (minor: number): string => (minor < 0 ? 'cx-amount--out' : minor > 0 ? 'cx-amount--in' : '');
