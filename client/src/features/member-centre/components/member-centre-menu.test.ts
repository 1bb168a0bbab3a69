import { describe, expect, it } from 'vitest';
import { menuScrollFor } from './member-centre-page';

describe('the member centre menu on a phone (one sideways row)', () => {
  it('scrolls the open item to the middle of the row, within the row', () => {
    const row = { clientWidth: 360, scrollWidth: 1800 };
    // Withdraw, the fourth item, at 420..520: centred
    expect(menuScrollFor(row, { offsetLeft: 420, offsetWidth: 100 })).toBe(290);
    // the first items: no scroll; the last: the end of the row
    expect(menuScrollFor(row, { offsetLeft: 8, offsetWidth: 150 })).toBe(0);
    expect(menuScrollFor(row, { offsetLeft: 1700, offsetWidth: 92 })).toBe(1440);
    expect(menuScrollFor({ clientWidth: 360, scrollWidth: 360 }, { offsetLeft: 200, offsetWidth: 100 })).toBe(0);
  });
});
