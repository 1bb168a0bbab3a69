/**
 * Money is integer minor units of the merchant's currency, per ISO 4217: centavos for PHP (exponent 2),
 * đồng for VND (exponent 0: one unit is one đồng, the đồng has no minor unit in use). Every place that
 * turns an amount into text, or typed text into an amount, goes through these helpers with the
 * merchant's exponent (currencyExponent), never a hard-coded 100 or 2 decimals.
 */

/**
 * ISO 4217 minor-unit exponents that the portal knows, or where the browsers' Intl data differs from
 * ISO (Intl gives IDR 0 decimals; ISO 4217 says 2). Others come from Intl.
 */
const ISO_EXPONENTS: Readonly<Record<string, number>> = { PHP: 2, VND: 0, IDR: 2, USD: 2, JPY: 0, KRW: 0 };

const exponentCache = new Map<string, number>();

/**
 * The currency's ISO 4217 exponent (decimals of its minor unit): PHP 2, VND 0. From the table above,
 * else Intl.NumberFormat's resolvedOptions().maximumFractionDigits for the currency, else 2.
 */
export function currencyExponent(currency: string | null | undefined): number {
  const code = (currency ?? '').trim().toUpperCase();
  const known = ISO_EXPONENTS[code];
  if (known !== undefined) return known;
  const cached = exponentCache.get(code);
  if (cached !== undefined) return cached;
  let exponent = 2;
  if (/^[A-Z]{3}$/.test(code)) {
    try {
      const d = new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits;
      if (typeof d === 'number' && Number.isInteger(d) && d >= 0 && d <= 4) exponent = d;
    } catch {
      // An unknown code: keep 2.
    }
  }
  exponentCache.set(code, exponent);
  return exponent;
}

/** Minor units in one major unit: 100 for PHP, 1 for VND. */
export const minorPerMajor = (exponent: number): number => 10 ** exponent;

/**
 * For display: thousands separators, the currency symbol, and exactly `exponent` decimals (2 for PHP:
 * '₱1,000.50'; 0 for VND: '₫1,000'). The default exponent is PHP's.
 */
export function formatMinor(minor: number, symbol = '', exponent = 2): string {
  const negative = minor < 0;
  const abs = Math.abs(Math.trunc(minor));
  const unit = minorPerMajor(exponent);
  const whole = Math.floor(abs / unit).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const frac = exponent > 0 ? `.${(abs % unit).toString().padStart(exponent, '0')}` : '';
  return `${negative ? '-' : ''}${symbol}${whole}${frac}`;
}

/** A stored amount as a form's plain input text, no separators: '1234.50' (PHP), '1234' (VND). */
export function toMajorInput(minor: number, exponent = 2): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(minor));
  const unit = minorPerMajor(exponent);
  return `${sign}${Math.floor(abs / unit)}${exponent > 0 ? `.${String(abs % unit).padStart(exponent, '0')}` : ''}`;
}

export type ParseMajorOptions = {
  /** Decimals the currency has (ISO 4217 exponent); more typed decimals are refused, never rounded. */
  exponent?: number;
  /** A leading + or - (an operator's adjustment debits). */
  signed?: boolean;
  /** Zero is an amount (else null). */
  allowZero?: boolean;
  /** '.5' and '12.' are read as 0.5 and 12 (the operator forms); a player's field wants digits on both sides. */
  bareDot?: boolean;
  /** Digits before the point at most (10: up to 9,999,999,999 major units). */
  maxWholeDigits?: number;
};

/**
 * Typed major units -> integer minor units, without floating point: with exponent 2 '1,234.5' is
 * 123450; with exponent 0 '1,234' is 1234 and '12.5' is refused (null), like '1.234' for PHP: an
 * amount the currency cannot hold is refused, not rounded. Commas are thousands separators, in their
 * places only ('1,5' is refused, not 15).
 * Returns null for anything else (empty, letters, a sign when not `signed`, zero when not `allowZero`).
 */
export function parseMajor(input: string, opts: ParseMajorOptions = {}): number | null {
  const exponent = opts.exponent ?? 2;
  const wholeDigits = opts.maxWholeDigits ?? 10;
  const typed = input.trim();
  // Commas group thousands and nothing else: '1,5' and '10,00' (a decimal comma) were read as 15.00 and
  // 1,000.00, ten and a hundred times what was meant.
  if (typed.includes(',') && !/^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d*)?$/.test(typed)) return null;
  const s = typed.replace(/,/g, '');
  const m = new RegExp(`^([+-]?)(\\d{${opts.bareDot ? 0 : 1},${wholeDigits}})(?:\\.(\\d{${opts.bareDot ? 0 : 1},${Math.max(exponent, 1)}}))?$`).exec(s);
  if (!m || (m[2] === '' && !m[3])) return null;
  const fraction = m[3] ?? '';
  if (fraction.length > exponent) return null;
  const sign = m[1] === '-' ? -1 : 1;
  if (m[1] && !opts.signed) return null;
  const minor = sign * (Number(m[2] || '0') * minorPerMajor(exponent) + Number(fraction.padEnd(exponent, '0') || '0'));
  if (!Number.isSafeInteger(minor)) return null;
  if (minor === 0) return opts.allowZero ? 0 : null;
  return minor;
}

/**
 * Round demo rates: what ₱1 of the portal's built-in amounts is worth in a currency's major unit. The
 * built-in amounts (house game stakes and play money, the simulator's stakes, default cashier limits and
 * payment channel ranges, the demo seed's rewards and sample wins) are written in centavos for the
 * Philippine market; a merchant in another currency gets them at this rate, rounded to whole numbers
 * of its unit (₱1 = ₫500: a ₱1 slot stake is a ₫500 one, not ₫1). A currency not listed keeps the
 * same number of major units (₱100 -> ¥100).
 */
const PESO_RATES: Readonly<Record<string, number>> = { PHP: 1, VND: 500 };

/**
 * A built-in amount written in centavos, in the currency's minor units at its round demo rate (see
 * PESO_RATES): scaleCentavos(100_00, 'VND') is 50,000 (₱100 -> ₫50,000); PHP is unchanged.
 */
export function scaleCentavos(centavos: number, currency: string | null | undefined): number {
  const code = (currency ?? '').trim().toUpperCase();
  if (code === 'PHP' || code === '') return centavos;
  const rate = PESO_RATES[code] ?? 1;
  return Math.round((centavos * rate * minorPerMajor(currencyExponent(code))) / 100);
}

/** A paid win goes to the winner board from this many times its stake... */
export const BIG_WIN_MULTIPLE = 20;
/**
 * ...or from this amount: ₱5,000 in centavos; a merchant in another currency uses it at its demo rate
 * (scaleCentavos: ₫2,500,000). The games (house, simulated vendors) and the winners page share it.
 */
export const BIG_WIN_CENTAVOS = 500_000;

/** Whether a paid win is big (winner board) in `currency`: 20 times its stake, or BIG_WIN_CENTAVOS at the currency's rate. */
export function isBigWin(stake: number, win: number, currency = 'PHP'): boolean {
  return win > 0 && (win >= stake * BIG_WIN_MULTIPLE || win >= scaleCentavos(BIG_WIN_CENTAVOS, currency));
}

/** Mask a customer name for public boards: keep the first and last characters. */
export function maskName(name: string): string {
  if (name.length <= 2) return `${name.slice(0, 1)}*`;
  return `${name.slice(0, 1)}${'*'.repeat(Math.min(name.length - 2, 4))}${name.slice(-1)}`;
}
