import { useEffect, useState, type RefObject } from 'react';
import { retryImport } from '../../lib/retry-import';

/** Scrolled this far (px) in one direction before the bar moves: a finger's jitter does not toggle it. */
const STEP = 12;
/** Near the top the bar always shows (nothing has scrolled under it yet). */
const TOP = 80;

/**
 * Should the phone's floating customer-service bar be tucked away, given where the page was (`lastY`)
 * and is (`y`), and how far it can scroll (`maxY`)? Down: tucked, so it covers nothing while reading;
 * up, near the top, or at the end (where the page keeps room below its last line): shown. Small moves
 * keep the previous state.
 */
export function nextTucked(tucked: boolean, lastY: number, y: number, maxY: number): boolean {
  if (y <= TOP || y >= maxY - 4) return false;
  if (y - lastY >= STEP) return true;
  if (lastY - y >= STEP) return false;
  return tucked;
}

/**
 * True while a control of the page lies under the phone's floating button (the bar steps aside; back once
 * the page moves the control away): side-bar-cover.ts, loaded only where the folded button shows.
 */
function useCoversControl(bar: RefObject<HTMLElement | null>, button: RefObject<HTMLElement | null>): boolean {
  const [covers, setCovers] = useState(false);
  useEffect(() => {
    const b = bar.current, btn = button.current;
    if (!b || !btn || btn.offsetWidth === 0) return;
    let stop: (() => void) | null = null;
    let cancelled = false;
    retryImport(() => import('./side-bar-cover')).then((m) => {
      if (!cancelled) stop = m.watchCover(b, btn, setCovers);
    }, () => {}); // given up on: the bar does not tuck under the button, nothing else
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [bar, button]);
  return covers;
}

/**
 * The bar's tucked state (the style applies it on phones only): from the window's scroll, and while its
 * button would cover one of the page's controls.
 */
export function useSideBarTucked(bar: RefObject<HTMLElement | null>, button: RefObject<HTMLElement | null>): boolean {
  const covers = useCoversControl(bar, button);
  return useScrollTucked() || covers;
}

/** The bar's tucked state from the window's scroll. */
function useScrollTucked(): boolean {
  const [tucked, setTucked] = useState(false);
  useEffect(() => {
    let lastY = window.scrollY;
    let state = false;
    const onScroll = () => {
      const y = window.scrollY;
      const maxY = document.documentElement.scrollHeight - window.innerHeight;
      const next = nextTucked(state, lastY, y, maxY);
      // lastY moves only once a step is taken, so a slow scroll still adds up to one.
      if (next !== state || Math.abs(y - lastY) >= STEP || y <= TOP) lastY = y;
      if (next !== state) setTucked((state = next));
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  return tucked;
}
