import { parseMajor, toMajorInput } from '@portal/contracts/domain/money';

/**
 * Major units typed by an operator -> integer minor units of the merchant's currency, without floating
 * point: with PHP's exponent 2 (the default) "1,234.5" -> 123450 and "-20" -> -2000; with VND's 0
 * "50,000" -> 50000 and "12.5" is refused. At most `exponent` decimals; `signed` allows a leading minus
 * (adjustments debit). Returns null for anything else (empty, letters, too many decimals, zero when not allowed).
 */
export function parsePesos(input: string, opts: { signed?: boolean; allowZero?: boolean; exponent?: number } = {}): number | null {
  return parseMajor(input, { ...opts, bareDot: true });
}

/** Minor units -> the plain input form ("1234.50" for PHP, "1234" for VND), for editing a stored amount. */
export function toPesosInput(minor: number, exponent = 2): string {
  return toMajorInput(minor, exponent);
}
