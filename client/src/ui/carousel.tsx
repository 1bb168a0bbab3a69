import { useCallback, useEffect, useMemo, useState, type CSSProperties, type ReactNode } from 'react';
import { usePrefersReducedMotion } from '../lib/reduced-motion';
import { reducedMotionBehaviour, type CarouselBehaviour } from './carousel-options';
import { useLazyEmbla } from './use-lazy-embla';
import './carousel.css';

export type CarouselLabels = {
  region: string;
  /** Spoken kind of the widget and of its slides (aria-roledescription), e.g. "carousel", "slide". */
  carouselRole: string;
  slideRole: string;
  prev: string;
  next: string;
  /** Name of a slide, e.g. "2 of 5". */
  slide: (slideNumber: number) => string;
  /** Name of a pagination dot, e.g. "Go to slide 2". */
  goTo: (slideNumber: number) => string;
};

type CarouselProps<T> = {
  items: readonly T[];
  getKey: (item: T) => string;
  renderSlide: (item: T, index: number) => ReactNode;
  behaviour: CarouselBehaviour;
  labels: CarouselLabels;
  /** Space between slides, px. */
  gap?: number;
  /** Slide width as a CSS length; defaults to the full viewport. */
  slideWidth?: string;
  className?: string;
  testId?: string;
};

export function Carousel<T>({
  items, getKey, renderSlide, behaviour: asked, labels, gap = 0, slideWidth = '100%', className, testId,
}: CarouselProps<T>) {
  const isReducedMotion = usePrefersReducedMotion();
  const behaviour = useMemo(() => (isReducedMotion ? reducedMotionBehaviour(asked) : asked), [asked, isReducedMotion]);
  const { autoplayMs } = behaviour;
  const autoplay = useMemo(
    () => (autoplayMs === null ? null : { delay: autoplayMs, stopOnInteraction: false, stopOnMouseEnter: true }),
    [autoplayMs],
  );
  // Embla arrives after the first paint: until then the slides sit in a row, the first in view.
  const [viewportRef, api] = useLazyEmbla(behaviour.options, autoplay);
  const [selected, setSelected] = useState(0);
  const [snapCount, setSnapCount] = useState(0);
  const [canPrev, setCanPrev] = useState(false);
  const [canNext, setCanNext] = useState(false);

  useEffect(() => {
    if (!api) return;
    const sync = () => {
      setSelected(api.selectedScrollSnap());
      setSnapCount(api.scrollSnapList().length);
      setCanPrev(api.canScrollPrev());
      setCanNext(api.canScrollNext());
    };
    sync();
    api.on('select', sync).on('reInit', sync);
    return () => {
      api.off('select', sync).off('reInit', sync);
    };
  }, [api]);

  // A manual move restarts the autoplay countdown so the next slide gets its full delay.
  const go = useCallback(
    (move: (a: NonNullable<typeof api>) => void) => {
      if (!api) return;
      move(api);
      api.plugins().autoplay?.reset();
    },
    [api],
  );

  const style = { '--carousel-gap': `${gap}px`, '--carousel-slide-width': slideWidth } as CSSProperties;

  return (
    <section
      className={`carousel ${className ?? ''}`}
      style={style}
      aria-roledescription={labels.carouselRole}
      aria-label={labels.region}
      data-testid={testId}
    >
      <div className="carousel__viewport" ref={viewportRef}>
        <div className="carousel__container">
          {items.map((item, i) => (
            <div
              className="carousel__slide"
              key={getKey(item)}
              role="group"
              aria-roledescription={labels.slideRole}
              aria-label={labels.slide(i + 1)}
            >
              {renderSlide(item, i)}
            </div>
          ))}
        </div>
      </div>
      {behaviour.showArrows && snapCount > 1 && (
        <>
          <button
            type="button"
            className="carousel__arrow carousel__arrow--prev"
            onClick={() => go((a) => a.scrollPrev())}
            disabled={!canPrev}
            aria-label={labels.prev}
          >
            <svg viewBox="0 0 24 24" aria-hidden="true"><path d="M15 5l-7 7 7 7" /></svg>
          </button>
          <button
            type="button"
            className="carousel__arrow carousel__arrow--next"
            onClick={() => go((a) => a.scrollNext())}
            disabled={!canNext}
            aria-label={labels.next}
          >
            <svg viewBox="0 0 24 24" aria-hidden="true"><path d="M9 5l7 7-7 7" /></svg>
          </button>
        </>
      )}
      {behaviour.showPagination && snapCount > 1 && (
        <div className="carousel__dots">
          {Array.from({ length: snapCount }, (_, i) => (
            <button
              type="button"
              key={i}
              className={`carousel__dot${i === selected ? ' is-active' : ''}`}
              aria-label={labels.goTo(i + 1)}
              aria-current={i === selected ? 'true' : undefined}
              onClick={() => go((a) => a.scrollTo(i))}
            />
          ))}
        </div>
      )}
    </section>
  );
}
