import { describe, expect, it } from 'vitest';
import { showsEnvelopes } from './envelope-host';

describe('who sees red envelopes float in', () => {
  it('a signed-in real player; not a guest, a trial account or a player under an exclusion (whose grab is refused: RG_EXCLUDED)', () => {
    expect(showsEnvelopes({ isLogin: true, isTrial: false, isExcluded: false })).toBe(true);
    expect(showsEnvelopes({ isLogin: false, isTrial: false, isExcluded: false })).toBe(false);
    expect(showsEnvelopes({ isLogin: true, isTrial: true, isExcluded: false })).toBe(false);
    expect(showsEnvelopes({ isLogin: true, isTrial: false, isExcluded: true })).toBe(false);
  });
});
