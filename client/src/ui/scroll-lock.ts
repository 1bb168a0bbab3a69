/**
 * Page scroll locking for modals: the page freezes at its scroll position (body fixed at -scrollY)
 * and returns exactly there on unlock. Counted, so nested modals unlock once the last one closes.
 */
export type ScrollLockEnv = {
  getScrollY: () => number;
  scrollTo: (y: number) => void;
  getScrollbarWidth: () => number;
  bodyStyle: Pick<CSSStyleDeclaration, 'position' | 'top' | 'left' | 'right' | 'width' | 'overflow' | 'paddingRight'>;
  /**
   * The page behind is covered (true) or back (false): its animations stop meanwhile (modal.css,
   * the winner board), since every frame of a moving page under the dimmed, blurred layer is redrawn
   * whole (the register and help dialogs stuttered at a few frames a second on a software-rendered page).
   */
  setCovered?: (covered: boolean) => void;
};

type Saved = { y: number; style: Pick<CSSStyleDeclaration, 'position' | 'top' | 'left' | 'right' | 'width' | 'overflow' | 'paddingRight'> };

export function createScrollLock(env: ScrollLockEnv) {
  let count = 0;
  let saved: Saved | null = null;

  return {
    lock(): void {
      count += 1;
      if (count > 1) return;
      const s = env.bodyStyle;
      const y = env.getScrollY();
      const scrollbar = env.getScrollbarWidth();
      saved = {
        y,
        style: { position: s.position, top: s.top, left: s.left, right: s.right, width: s.width, overflow: s.overflow, paddingRight: s.paddingRight },
      };
      s.position = 'fixed';
      s.top = `${-y}px`;
      s.left = '0';
      s.right = '0';
      s.width = '100%';
      s.overflow = 'hidden';
      if (scrollbar > 0) s.paddingRight = `${scrollbar}px`;
      env.setCovered?.(true);
    },
    unlock(): void {
      if (count === 0) return;
      count -= 1;
      if (count > 0 || !saved) return;
      Object.assign(env.bodyStyle, saved.style);
      env.setCovered?.(false);
      env.scrollTo(saved.y);
      saved = null;
    },
    isLocked: (): boolean => count > 0,
  };
}

export type ScrollLock = ReturnType<typeof createScrollLock>;

let pageLock: ScrollLock | null = null;

/** The page's lock (browser only). */
export function pageScrollLock(): ScrollLock {
  pageLock ??= createScrollLock({
    getScrollY: () => window.scrollY,
    scrollTo: (y) => window.scrollTo({ top: y, left: 0, behavior: 'instant' }),
    getScrollbarWidth: () => window.innerWidth - document.documentElement.clientWidth,
    bodyStyle: document.body.style,
    setCovered: (covered) => document.documentElement.toggleAttribute(PAGE_COVERED_ATTR, covered),
  });
  return pageLock;
}

/** Set on <html> while a dialog covers the page (see ScrollLockEnv.setCovered). */
export const PAGE_COVERED_ATTR = 'data-page-covered';
/** Whether a dialog covers the page: moving parts of the page skip their frames meanwhile. */
export const isPageCovered = () => document.documentElement.hasAttribute(PAGE_COVERED_ATTR);
