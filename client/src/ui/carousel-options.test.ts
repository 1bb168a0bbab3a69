import { describe, expect, it } from 'vitest';
import { LIMITS } from '@portal/contracts/domain/constants';
import { bannerCarouselBehaviour, emblaDurationForMs, reducedMotionBehaviour, stripCarouselBehaviour } from './carousel-options';

const timing = { autoplayMs: LIMITS.BANNER_AUTOPLAY_MS, transitionMs: LIMITS.BANNER_TRANSITION_MS };

describe('bannerCarouselBehaviour', () => {
  it('makes a single banner static', () => {
    const b = bannerCarouselBehaviour(1, timing);
    expect(b.options.loop).toBe(false);
    expect(b.options.watchDrag).toBe(false);
    expect(b.autoplayMs).toBeNull();
    expect(b.showPagination).toBe(false);
    expect(b.showArrows).toBe(false);
  });

  it('treats no banners as static too', () => {
    expect(bannerCarouselBehaviour(0, timing).autoplayMs).toBeNull();
  });

  it('loops, auto-advances every 5000 ms and paginates with several banners', () => {
    const b = bannerCarouselBehaviour(3, timing);
    expect(b.options.loop).toBe(true);
    expect(b.options.watchDrag).toBe(true);
    expect(b.autoplayMs).toBe(5000);
    expect(b.showPagination).toBe(true);
    expect(b.options.duration).toBe(emblaDurationForMs(1000));
  });
});

describe('emblaDurationForMs', () => {
  it('grows with the wanted time and lands in Embla’s usable range for 1000 ms', () => {
    const fast = emblaDurationForMs(300);
    const slow = emblaDurationForMs(1000);
    expect(fast).toBeLessThan(slow);
    // Embla recommends 20-60; its default 25 is roughly a one-second glide.
    expect(slow).toBeGreaterThan(15);
    expect(slow).toBeLessThan(40);
  });
});

describe('stripCarouselBehaviour', () => {
  it('scrolls freely without looping or autoplay', () => {
    const s = stripCarouselBehaviour();
    expect(s.options.loop).toBe(false);
    expect(s.options.dragFree).toBe(true);
    expect(s.autoplayMs).toBeNull();
  });
});

describe('reducedMotionBehaviour', () => {
  it('keeps loop, drag, arrows and dots of several banners but drops the autoplay and lands moves at once', () => {
    const asked = bannerCarouselBehaviour(3, timing);
    const reduced = reducedMotionBehaviour(asked);
    expect(reduced.autoplayMs).toBeNull();
    expect(reduced.options).toEqual({ ...asked.options, duration: 0 });
    expect(reduced).toMatchObject({ showPagination: true, showArrows: true });
    expect(asked.autoplayMs).toBe(LIMITS.BANNER_AUTOPLAY_MS);
  });
});
