import { parseMajor } from '@portal/contracts/domain/money';

/**
 * Amounts typed by a player ("1,500" or "1500.5") as integer minor units of the merchant's currency
 * (`exponent`: 2 for PHP centavos, 0 for VND đồng; useCurrency gives it), or null when the text is not
 * a plain positive amount with at most `exponent` decimals ("12.5" is refused for VND, not rounded).
 * Display goes through formatMinor.
 */
export function parseAmountMinor(text: string, exponent = 2): number | null {
  return parseMajor(text, { exponent, allowZero: true });
}

/** A fresh idempotency key for one submit (kept while the same submit is retried). */
export function newRequestId(): string {
  return crypto.randomUUID();
}
