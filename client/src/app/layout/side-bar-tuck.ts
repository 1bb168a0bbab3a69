import { useEffect, useState, type RefObject } from 'react';

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
 * What the floating button must not sit on: a form's controls (its buttons, fields, choices and tabs; a tap
 * meant for the withdraw form's submit button opened the customer-service bar instead) and the site's
 * buttons anywhere (`.btn`: the security centre's "Set up", responsible gaming's self-exclusion, a list's
 * "Refresh"). A game tile's favourite button or a link is not in it: the button would then flicker away
 * and back all along a page of tiles, and those scroll clear of it.
 */
export const CONTROL_SELECTOR = [
  'form button', 'form input', 'form select', 'form textarea', 'form [role="button"]', 'form [role="radio"]', 'form [role="tab"]',
  'button[type="submit"]', '.btn',
].join(', ');

/**
 * Is a control of the page under the floating button? `stacks`: at a few points of the button's place,
 * the elements there, topmost first (document.elementsFromPoint), the bar's own among them. The first
 * one not the bar's is what a tap there would reach without the bar.
 */
export function coversControl(stacks: readonly (readonly Element[])[], bar: Element): boolean {
  return stacks.some((stack) => {
    const under = stack.find((el) => !bar.contains(el));
    return !!under && !!under.closest(CONTROL_SELECTOR);
  });
}

/**
 * Points of the button's place (where it is when shown, whether or not it is tucked now): its middle and
 * four points just inside its corners (it is round).
 */
function buttonPoints(bar: HTMLElement, button: HTMLElement): Array<[number, number]> {
  const cs = getComputedStyle(bar);
  const w = button.offsetWidth, h = button.offsetHeight;
  const right = document.documentElement.clientWidth - (parseFloat(cs.right) || 0);
  const bottom = window.innerHeight - (parseFloat(cs.bottom) || 0);
  const left = right - w, top = bottom - h;
  const inset = w * 0.2;
  return [[left + w / 2, top + h / 2], [left + inset, top + inset], [right - inset, top + inset], [left + inset, bottom - inset], [right - inset, bottom - inset]];
}

/**
 * True while a control of the page lies under the phone's floating button (the bar steps aside; back once
 * the page moves the control away). Checked after a scroll, a resize or a change of the page's content,
 * at most once a frame; only where the folded button shows (phones).
 */
function useCoversControl(bar: RefObject<HTMLElement | null>, button: RefObject<HTMLElement | null>): boolean {
  const [covers, setCovers] = useState(false);
  useEffect(() => {
    let frame = 0;
    const check = () => {
      frame = 0;
      const b = bar.current, btn = button.current;
      if (!b || !btn || btn.offsetWidth === 0 || typeof document.elementsFromPoint !== 'function') {
        setCovers(false);
        return;
      }
      setCovers(coversControl(buttonPoints(b, btn).map(([x, y]) => document.elementsFromPoint(x, y)), b));
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(check);
    };
    schedule();
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    const observer = new MutationObserver(schedule);
    observer.observe(document.body, { childList: true, subtree: true });
    return () => {
      if (frame) cancelAnimationFrame(frame);
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
      observer.disconnect();
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
