import { describe, expect, it, vi } from 'vitest';
import { nextOfferToShow } from './offer-store';

const offers = [
  { id: 7, downlineId: 100 },
  { id: 8, downlineId: 100 },
  { id: 9, downlineId: 200 },
];

describe('nextOfferToShow (the global contract offer popup)', () => {
  it('opens the first offer to this agent', () => {
    expect(nextOfferToShow(offers, new Set(), new Set(), 100)?.id).toBe(7);
    expect(nextOfferToShow(offers, new Set(), new Set(), 200)?.id).toBe(9);
    expect(nextOfferToShow(undefined, new Set(), new Set(), 100)).toBeUndefined();
  });

  it('skips offers put away ("Later") and offers answered on this page, even while the cached list still has them', () => {
    expect(nextOfferToShow(offers, new Set([7]), new Set(), 100)?.id).toBe(8);
    // 7 was accepted a moment ago: the list has not been refetched yet, the popup must not open it again
    expect(nextOfferToShow(offers, new Set(), new Set([7]), 100)?.id).toBe(8);
    expect(nextOfferToShow(offers, new Set([8]), new Set([7]), 100)).toBeUndefined();
  });
});

describe('offers put away ("Later")', () => {
  it('stay put away after a reload of the page (the tab keeps their ids), until opened again', async () => {
    const store = new Map<string, string>();
    const session = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v), removeItem: (k: string) => void store.delete(k) };
    const g = globalThis as unknown as { window?: unknown };
    g.window = { sessionStorage: session, localStorage: session };
    try {
      vi.resetModules();
      const first = await import('./offer-store');
      first.putOfferAway(7);
      first.putOfferAway(9);
      first.reopenOffer(9);
      expect([...first.putAwayOffers()]).toEqual([7]);
      vi.resetModules();
      const reloaded = await import('./offer-store');
      expect([...reloaded.putAwayOffers()]).toEqual([7]);
      expect(nextOfferToShow(offers, reloaded.putAwayOffers(), new Set(), 100)?.id).toBe(8);
      reloaded.reopenOffer(7);
      expect(store.has('contractOffers:later')).toBe(false);
    } finally {
      delete g.window;
    }
  });
});
