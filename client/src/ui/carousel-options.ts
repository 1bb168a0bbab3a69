import type { EmblaOptionsType } from 'embla-carousel';

/** Embla's options. */
export type CarouselOptions = EmblaOptionsType;

/** Embla's default friction, which its scroll body multiplies the velocity by every frame. */
const EMBLA_FRICTION = 0.68;
/** Embla runs its physics at a fixed 60 steps per second. */
const EMBLA_STEP_MS = 1000 / 60;

/**
 * Embla's `duration` is a spring constant, not milliseconds. This returns the duration
 * whose scroll covers 99.9% of the distance in about `ms`, by simulating Embla's
 * scroll body (velocity += remaining / duration; velocity *= friction).
 */
export function emblaDurationForMs(ms: number, friction = EMBLA_FRICTION): number {
  const stepsFor = (duration: number) => {
    let location = 0;
    let velocity = 0;
    let steps = 0;
    while (Math.abs(1 - location) > 0.001 && steps < 10_000) {
      velocity += (1 - location) / duration;
      velocity *= friction;
      location += velocity;
      steps++;
    }
    return steps;
  };
  const targetSteps = ms / EMBLA_STEP_MS;
  let lo = 1;
  let hi = 200;
  for (let i = 0; i < 40; i++) {
    const mid = (lo + hi) / 2;
    if (stepsFor(mid) < targetSteps) lo = mid;
    else hi = mid;
  }
  return Math.round(((lo + hi) / 2) * 10) / 10;
}

export type CarouselBehaviour = {
  options: CarouselOptions;
  /** Autoplay delay in ms, or null for no autoplay. */
  autoplayMs: number | null;
  showPagination: boolean;
  showArrows: boolean;
};

/**
 * Banner carousels: more than one slide loops, auto-advances and shows clickable
 * pagination; a single slide is static (no loop, no drag, no autoplay, no pagination).
 */
export function bannerCarouselBehaviour(
  slideCount: number,
  timing: { autoplayMs: number; transitionMs: number },
): CarouselBehaviour {
  const isMany = slideCount > 1;
  return {
    options: {
      loop: isMany,
      watchDrag: isMany,
      align: 'start',
      duration: emblaDurationForMs(timing.transitionMs),
    },
    autoplayMs: isMany ? timing.autoplayMs : null,
    showPagination: isMany,
    showArrows: isMany,
  };
}

/** Horizontally scrollable strips (home sliders): free drag, no loop, contained at the ends. */
export function stripCarouselBehaviour(): CarouselBehaviour {
  return {
    options: { loop: false, dragFree: true, align: 'start', containScroll: 'trimSnaps', slidesToScroll: 'auto' },
    autoplayMs: null,
    showPagination: false,
    showArrows: true,
  };
}

/**
 * For a visitor who asks for reduced motion: nothing moves by itself (no autoplay) and a move they
 * ask for (arrow, dot, swipe's end) lands at once instead of sliding (Embla's duration 0).
 */
export function reducedMotionBehaviour(behaviour: CarouselBehaviour): CarouselBehaviour {
  return { ...behaviour, options: { ...behaviour.options, duration: 0 }, autoplayMs: null };
}
