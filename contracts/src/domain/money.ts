/**
 * Money is integer minor units (centavos). These helpers format for display only:
 * 2 decimals, thousands separators, currency symbol.
 */
export function formatMinor(minor: number, symbol = ''): string {
  const negative = minor < 0;
  const abs = Math.abs(Math.trunc(minor));
  const whole = Math.floor(abs / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const cents = (abs % 100).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${symbol}${whole}.${cents}`;
}

/** Mask a customer name for public boards: keep the first and last characters. */
export function maskName(name: string): string {
  if (name.length <= 2) return `${name.slice(0, 1)}*`;
  return `${name.slice(0, 1)}${'*'.repeat(Math.min(name.length - 2, 4))}${name.slice(-1)}`;
}
