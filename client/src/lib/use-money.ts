import { useCallback } from 'react';
import { formatMinor } from '@portal/contracts/domain/money';
import { useWhitelabel } from './whitelabel';

/** Formats minor units with the brand's currency symbol (2 decimals, thousands separators). */
export function useMoney(): (minor: number) => string {
  const symbol = useWhitelabel().data?.brand.currencySymbol ?? '';
  return useCallback((minor: number) => formatMinor(minor, symbol), [symbol]);
}

/** A date-time for lists, in the viewer's locale and time zone. */
export function formatDateTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}
