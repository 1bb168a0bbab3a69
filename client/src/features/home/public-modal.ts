import type { TAnnouncement } from '@portal/contracts/api/content';
import { LIMITS } from '@portal/contracts/domain/constants';

/**
 * The announcement popup's rules (spec: publicModal). Popups are chosen for logged-in or anonymous
 * visitors (execution B or A; F is the first login's, shown by its own popup), paged in groups of 6,
 * and shown once per session per key: dismissing it stores 'closed' under the logged-in or anonymous
 * key in session storage.
 */
export const POPUP_PAGE_SIZE = LIMITS.ANNOUNCEMENT_PAGE_SIZE;
export type PopupAudience = 'loggedIn' | 'anonymous';

export const popupStateKey = (audience: PopupAudience) => `publicModal:${audience}`;

/** The popups for this audience, in the server's order. */
export function popupsFor(list: readonly TAnnouncement[], audience: PopupAudience): TAnnouncement[] {
  return list.filter((a) => (audience === 'loggedIn' ? a.execution === 'B' : a.execution === 'A'));
}

export function pageCount(total: number, size = POPUP_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(total / size));
}

/** Page `page` (1-based, clamped to the pages there are). */
export function pageOf<T>(list: readonly T[], page: number, size = POPUP_PAGE_SIZE): T[] {
  const p = Math.min(Math.max(1, page), pageCount(list.length, size));
  return list.slice((p - 1) * size, p * size);
}

type SessionStore = { get(key: string): string | null; set(key: string, value: string): void };

export function wasClosed(store: SessionStore, audience: PopupAudience): boolean {
  return store.get(popupStateKey(audience)) === 'closed';
}

export function markClosed(store: SessionStore, audience: PopupAudience): void {
  store.set(popupStateKey(audience), 'closed');
}

/** Whether to show the popup now: something to show, not yet closed this session, nothing else in the way. */
export function shouldShowPopup(i: { items: number; closed: boolean; blocked: boolean }): boolean {
  return i.items > 0 && !i.closed && !i.blocked;
}
