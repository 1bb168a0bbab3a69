import { useSyncExternalStore } from 'react';
import { readStorage, writeStorage } from '../../../lib/storage';

/**
 * Offers the signed-in agent put away ("Later"): the global popup skips them until they are opened
 * again from "My contracts". Module state, so the back office's list and the popup share it, kept in
 * the tab's sessionStorage (contract ids only) so that "Later" holds across pages and reloads: the
 * popup came back on every page load.
 */
const KEY = 'contractOffers:later';
const stored = (): ReadonlySet<number> => {
  try {
    const v: unknown = JSON.parse(readStorage('session', KEY) ?? '[]');
    return new Set(Array.isArray(v) ? v.filter((x): x is number => Number.isInteger(x)) : []);
  } catch {
    return new Set();
  }
};
let putAway: ReadonlySet<number> = stored();
const listeners = new Set<() => void>();
const emit = () => {
  writeStorage('session', KEY, putAway.size ? JSON.stringify([...putAway]) : null);
  listeners.forEach((l) => l());
};

export function putOfferAway(id: number) {
  putAway = new Set([...putAway, id]);
  emit();
}
export function reopenOffer(id: number) {
  const next = new Set(putAway);
  next.delete(id);
  putAway = next;
  emit();
}
/** The offers put away now (what usePutAwayOffers renders with). */
export const putAwayOffers = (): ReadonlySet<number> => putAway;
export function usePutAwayOffers(): ReadonlySet<number> {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    putAwayOffers,
    putAwayOffers,
  );
}

/**
 * The offer the global popup opens next: the first received offer of this agent that is not put away
 * and not answered in this page's life. An offer answered a moment ago (accepted or rejected) is still
 * in the cached list until its refetch arrives; without `answered` its popup opened again on close.
 */
export function nextOfferToShow<T extends { id: number; downlineId: number }>(
  list: readonly T[] | undefined,
  putAwayIds: ReadonlySet<number>,
  answered: ReadonlySet<number>,
  memberId: number | null,
): T | undefined {
  return list?.find((c) => !putAwayIds.has(c.id) && !answered.has(c.id) && (memberId === null || c.downlineId === memberId));
}
