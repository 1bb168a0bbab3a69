import { useCallback } from 'react';
import { formatMinor } from '@portal/contracts/domain/money';
import { merchantClock } from '@portal/contracts/domain/clock';
import { useWhitelabel } from './whitelabel';

/** Formats minor units with the brand's currency symbol (2 decimals, thousands separators). */
export function useMoney(): (minor: number) => string {
  const symbol = useWhitelabel().data?.brand.currencySymbol ?? '';
  return useCallback((minor: number) => formatMinor(minor, symbol), [symbol]);
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
