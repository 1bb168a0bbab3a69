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
 * Watch whether a control of the page lies under the phone's floating button: `onChange` after a scroll, a
 * resize or a change of the page's content, at most once a frame. Returns the way to stop. Loaded only
 * where the folded button shows (phones), so a desktop's first visit does not carry it.
 */
export function watchCover(bar: HTMLElement, button: HTMLElement, onChange: (covers: boolean) => void): () => void {
  let frame = 0;
  const check = () => {
    frame = 0;
    if (button.offsetWidth === 0 || typeof document.elementsFromPoint !== 'function') {
      onChange(false);
      return;
    }
    onChange(coversControl(buttonPoints(bar, button).map(([x, y]) => document.elementsFromPoint(x, y)), bar));
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
}
