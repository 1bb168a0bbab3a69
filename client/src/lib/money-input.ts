/**
 * Amounts typed by a player ("1,500" or "1500.5") as integer minor units (centavos), or null when
 * the text is not a plain positive amount with at most 2 decimals. Display goes through formatMinor.
 */
export function parseAmountMinor(text: string): number | null {
  const s = text.trim().replace(/,/g, '');
  if (!/^\d{1,10}(\.\d{1,2})?$/.test(s)) return null;
  const [whole = '0', frac = ''] = s.split('.');
  const minor = Number(whole) * 100 + Number(frac.padEnd(2, '0'));
  return Number.isSafeInteger(minor) ? minor : null;
}

/** A fresh idempotency key for one submit (kept while the same submit is retried). */
export function newRequestId(): string {
  return crypto.randomUUID();
}
