import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
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

/**
 * A game type's name in the console's language (the player site's names: RNG is "Slots", LOTT
 * "Lottery"), the code itself for a type the catalogue does not name. Lists keep the code beside it
 * where an operator searches by code.
 */
export function useGameTypeName(): (gameType: string) => string {
  const { t } = useTranslation('home');
  return useCallback((gameType: string) => t(`gameType.${gameType}`, { defaultValue: gameType }), [t]);
}
