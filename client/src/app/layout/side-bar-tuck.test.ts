import { describe, expect, it } from 'vitest';
import { nextTucked } from './side-bar-tuck';

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
