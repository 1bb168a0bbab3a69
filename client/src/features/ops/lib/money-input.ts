/**
 * Pesos typed by an operator -> integer centavos, without floating point: "1,234.5" -> 123450,
 * "-20" -> -2000. At most 2 decimals; `signed` allows a leading minus (adjustments debit).
 * Returns null for anything else (empty, letters, 3 decimals, zero when not allowed).
 */
export function parsePesos(input: string, opts: { signed?: boolean; allowZero?: boolean } = {}): number | null {
  const s = input.trim().replace(/,/g, '');
  const m = /^([+-]?)(\d{1,10})(?:\.(\d{0,2}))?$/.exec(s) ?? /^([+-]?)()\.(\d{1,2})$/.exec(s);
  if (!m) return null;
  const sign = m[1] === '-' ? -1 : 1;
  if (sign < 0 && !opts.signed) return null;
  const whole = Number(m[2] || '0');
  const cents = Number((m[3] ?? '').padEnd(2, '0'));
  const minor = sign * (whole * 100 + cents);
  if (minor === 0 && !opts.allowZero) return null;
  return minor === 0 ? 0 : minor;
}

/** Centavos -> the plain input form ("1234.50"), for editing a stored amount. */
export function toPesosInput(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(minor));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
