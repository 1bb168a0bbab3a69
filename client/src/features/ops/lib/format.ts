import { useCallback } from 'react';
import { formatDateTime as formatListDateTime } from '../../../lib/use-money';
import { useBrandOffset } from '../../../lib/whitelabel';

/**
 * An ISO time as 'YYYY-MM-DD HH:mm:ss' on the merchant's clock (`offsetMinutes` east of UTC, the
 * brand's GMT offset): dense, sortable, the same in every language and whatever the browser's zone.
 * The console says the zone once (top bar), so a time never carries it.
 */
export function formatDateTime(iso: string | null | undefined, offsetMinutes: number): string {
  return iso ? formatListDateTime(iso, offsetMinutes, { seconds: true }) : '—';
}

/** The console's one time formatter: formatDateTime on the merchant's clock. */
export function useOpsTime(): (iso: string | null | undefined) => string {
  const offset = useBrandOffset();
  return useCallback((iso: string | null | undefined) => formatDateTime(iso, offset), [offset]);
}

/** The last page of a list of `total` rows (1 when empty). */
export const lastPage = (total: number, pageSize: number) => Math.max(1, Math.ceil(total / pageSize));
