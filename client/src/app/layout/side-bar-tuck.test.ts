import { describe, expect, it } from 'vitest';
import { nextTucked } from './side-bar-tuck';
import { coversControl } from './side-bar-cover';

describe("the phone's floating bar tucks away while the page scrolls down", () => {
  const MAX = 5000;
  it('scrolling down past the top tucks it; scrolling up shows it again', () => {
    expect(nextTucked(false, 300, 340, MAX)).toBe(true);
    expect(nextTucked(true, 340, 300, MAX)).toBe(false);
  });
  it('small moves keep the state (jitter of a finger)', () => {
    expect(nextTucked(false, 300, 305, MAX)).toBe(false);
    expect(nextTucked(true, 300, 295, MAX)).toBe(true);
  });
  it('near the top and at the end of the page it shows, whatever the direction', () => {
    expect(nextTucked(true, 40, 60, MAX)).toBe(false);
    expect(nextTucked(true, MAX - 100, MAX, MAX)).toBe(false);
    expect(nextTucked(true, MAX - 40, MAX - 2, MAX)).toBe(false);
  });
});

describe('the floating button steps aside from a control under it (it covered the withdraw page\'s submit button)', () => {
  /** A stand-in element: its own name, its ancestors' names (closest), and whether the bar holds it. */
  const el = (chain: string[], inBar = false) => ({
    inBar,
    closest: (sel: string) => (chain.some((tag) => sel.split(',').map((s) => s.trim()).includes(tag)) ? {} : null),
  }) as unknown as Element & { inBar: boolean };
  const bar = { contains: (e: Element) => (e as Element & { inBar: boolean }).inBar } as unknown as Element;
  const barButton = el(['button'], true);

  it("a form's button, field or choice just under the bar: covered", () => {
    expect(coversControl([[barButton, el(['span', 'form button'])]], bar)).toBe(true);
    expect(coversControl([[el(['div']), el(['main'])], [barButton, el(['form input'])]], bar)).toBe(true);
    expect(coversControl([[barButton, el(['div', 'form [role="radio"]'])]], bar)).toBe(true);
    expect(coversControl([[barButton, el(['button[type="submit"]'])]], bar)).toBe(true);
    // the site's buttons outside a form too (the security centre's "Set up" was covered)
    expect(coversControl([[barButton, el(['span', '.btn'])]], bar)).toBe(true);
  });

  it("text, an image, a link or a tile's own button under it: not covered (the page can scroll it clear)", () => {
    expect(coversControl([[barButton, el(['p', 'div'])]], bar)).toBe(false);
    expect(coversControl([[barButton, el(['img', 'a'])]], bar)).toBe(false);
    expect(coversControl([[barButton, el(['button'])]], bar)).toBe(false);
    expect(coversControl([[barButton]], bar)).toBe(false);
    expect(coversControl([], bar)).toBe(false);
  });

  it('only what a tap would reach counts: a button beneath the topmost element is not', () => {
    expect(coversControl([[barButton, el(['div']), el(['form button'])]], bar)).toBe(false);
  });
});
