import type { TWinner } from '@portal/contracts/api/games';
import { LIMITS } from '@portal/contracts/domain/constants';
import { maskName } from '@portal/contracts/domain/money';

/**
 * Puts newer winners (newest first) in front of the list, drops duplicates by id
 * (a refetch and a live event can bring the same win) and keeps at most `limit`.
 */
export function mergeWinners(
  current: readonly TWinner[],
  incoming: readonly TWinner[],
  limit: number = LIMITS.WINNER_BOARD_LIMIT,
): TWinner[] {
  const seen = new Set<string>();
  const merged: TWinner[] = [];
  for (const w of [...incoming, ...current]) {
    if (seen.has(w.id)) continue;
    seen.add(w.id);
    merged.push(w);
    if (merged.length >= limit) break;
  }
  return merged;
}

/** Ids in `next` that `previous` lacked: the rows to highlight. Nothing on the first load. */
export function freshWinnerIds(previous: readonly TWinner[] | undefined, next: readonly TWinner[]): string[] {
  if (!previous) return [];
  const before = new Set(previous.map((w) => w.id));
  return next.filter((w) => !before.has(w.id)).map((w) => w.id);
}

/**
 * One frame of the vertical scroller: move by `step` px and wrap once a whole copy of
 * the list (`loopHeight` px) has gone by, so the doubled list scrolls without a seam.
 */
export function nextScrollOffset(offset: number, step: number, loopHeight: number): number {
  if (loopHeight <= 0) return 0;
  const next = offset + step;
  return next >= loopHeight ? next - loopHeight : next;
}

/** Public boards never show a full name; names the server already masked stay as they are. */
export function winnerDisplayName(customerName: string): string {
  return customerName.includes('*') ? customerName : maskName(customerName);
}
