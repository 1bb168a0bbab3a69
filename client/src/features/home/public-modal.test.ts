import { describe, expect, it } from 'vitest';
import type { TAnnouncement } from '@portal/contracts/api/content';
import { markClosed, pageCount, pageOf, popupStateKey, popupsFor, shouldShowPopup, wasClosed, POPUP_PAGE_SIZE } from './public-modal';

const item = (id: number, execution: 'A' | 'B' | 'F' | null): TAnnouncement => ({ id: String(id), title: `t${id}`, content: 'c', startDateStr: '2026-11-24', promotionType: null, execution });

function memoryStore() {
  const m = new Map<string, string>();
  return { get: (k: string) => m.get(k) ?? null, set: (k: string, v: string) => void m.set(k, v), map: m };
}

describe('announcement popup rules', () => {
  it('pages in groups of 6', () => {
    expect(POPUP_PAGE_SIZE).toBe(6);
    const list = Array.from({ length: 14 }, (_, i) => item(i + 1, 'A'));
    expect(pageCount(list.length)).toBe(3);
    expect(pageOf(list, 1).map((a) => a.id)).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(pageOf(list, 3).map((a) => a.id)).toEqual(['13', '14']);
    expect(pageOf(list, 9).map((a) => a.id)).toEqual(['13', '14']);
    expect(pageOf(list, 0).map((a) => a.id)).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(pageCount(0)).toBe(1);
    expect(pageCount(6)).toBe(1);
    expect(pageCount(7)).toBe(2);
  });

  it('chooses execution A for anonymous visitors and B for logged-in players (F is the first login popup)', () => {
    const list = [item(1, 'A'), item(2, 'B'), item(3, 'F'), item(4, null), item(5, 'A')];
    expect(popupsFor(list, 'anonymous').map((a) => a.id)).toEqual(['1', '5']);
    expect(popupsFor(list, 'loggedIn').map((a) => a.id)).toEqual(['2']);
  });

  it('shows once per session per key: closing stores "closed" under that key only', () => {
    const store = memoryStore();
    expect(wasClosed(store, 'anonymous')).toBe(false);
    expect(shouldShowPopup({ items: 2, closed: wasClosed(store, 'anonymous'), blocked: false })).toBe(true);
    markClosed(store, 'anonymous');
    expect(store.map.get(popupStateKey('anonymous'))).toBe('closed');
    expect(shouldShowPopup({ items: 2, closed: wasClosed(store, 'anonymous'), blocked: false })).toBe(false);
    // the logged-in key is its own: after login the member's popups still show once
    expect(wasClosed(store, 'loggedIn')).toBe(false);
    expect(shouldShowPopup({ items: 1, closed: wasClosed(store, 'loggedIn'), blocked: false })).toBe(true);
  });

  it('waits while another popup is open, and shows nothing when there is nothing', () => {
    expect(shouldShowPopup({ items: 3, closed: false, blocked: true })).toBe(false);
    expect(shouldShowPopup({ items: 0, closed: false, blocked: false })).toBe(false);
  });
});
