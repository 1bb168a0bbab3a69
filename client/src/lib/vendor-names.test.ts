import { describe, expect, it } from 'vitest';
import { vendorNameOf } from './vendor-names';

// As GCSGAME_gameVendor answers a merchant with the house games only: one vendor code, a name per game type.
const lanes = [
  { gameType: 'LIVE', vendors: [{ vassalage: 'HOUSE', gameType: 'LIVE', displayName: 'Lucky Live' }] },
  { gameType: 'RNG', vendors: [{ vassalage: 'HOUSE', gameType: 'RNG', displayName: 'Lucky Slots' }, { vassalage: 'JILI', gameType: 'RNG', displayName: 'JILI Slots' }] },
  { gameType: 'FISH', vendors: [{ vassalage: 'HOUSE', gameType: 'FISH', displayName: 'Lucky Arcade' }] },
  { gameType: 'PVP', vendors: [{ vassalage: 'HOUSE', gameType: 'PVP', displayName: 'Lucky Cards' }] },
];

describe('vendorNameOf', () => {
  it("names a game's vendor by the game's type (a slot is not 'Lucky Live')", () => {
    expect(vendorNameOf(lanes, 'HOUSE', 'RNG')).toBe('Lucky Slots');
    expect(vendorNameOf(lanes, 'HOUSE', 'FISH')).toBe('Lucky Arcade');
    expect(vendorNameOf(lanes, 'HOUSE', 'PVP')).toBe('Lucky Cards');
    expect(vendorNameOf(lanes, 'HOUSE', 'LIVE')).toBe('Lucky Live');
  });
  it('falls back to the first name without a type or when the type has none, then to the code', () => {
    expect(vendorNameOf(lanes, 'HOUSE')).toBe('Lucky Live');
    expect(vendorNameOf(lanes, 'JILI', 'FISH')).toBe('JILI Slots');
    expect(vendorNameOf(lanes, 'PG_SOFT', 'RNG')).toBe('PG SOFT');
  });
});
