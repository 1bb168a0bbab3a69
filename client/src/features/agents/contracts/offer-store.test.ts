import { describe, expect, it } from 'vitest';
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
