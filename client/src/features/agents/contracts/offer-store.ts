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
