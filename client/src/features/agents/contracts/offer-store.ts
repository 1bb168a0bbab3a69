import { useSyncExternalStore } from 'react';

/**
 * Offers the signed-in agent put away ("Later"): the global popup skips them until they are opened
 * again from "My contracts". Module state, so the back office's list and the popup share it.
 */
let putAway: ReadonlySet<number> = new Set();
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

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
export function usePutAwayOffers(): ReadonlySet<number> {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => putAway,
    () => putAway,
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
