import { useCallback } from 'react';
import { merchantClock } from '@portal/contracts/domain/clock';
import { useBrandOffset } from '../../../lib/whitelabel';

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * An ISO time as 'YYYY-MM-DD HH:mm:ss' on the merchant's clock (`offsetMinutes` east of UTC, the
 * brand's GMT offset): dense, sortable, the same in every language and whatever the browser's zone.
 * The console says the zone once (top bar), so a time never carries it.
 */
export function formatDateTime(iso: string | null | undefined, offsetMinutes: number): string {
  if (!iso) return '—';
  const at = new Date(iso).getTime();
  if (Number.isNaN(at)) return iso;
  const d = merchantClock(offsetMinutes, at);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** The console's one time formatter: formatDateTime on the merchant's clock. */
export function useOpsTime(): (iso: string | null | undefined) => string {
  const offset = useBrandOffset();
  return useCallback((iso: string | null | undefined) => formatDateTime(iso, offset), [offset]);
}

/** The last page of a list of `total` rows (1 when empty). */
export const lastPage = (total: number, pageSize: number) => Math.max(1, Math.ceil(total / pageSize));
