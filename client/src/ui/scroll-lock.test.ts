import { describe, expect, it } from 'vitest';
import { createScrollLock } from './scroll-lock';
import type { ScrollLockEnv } from './scroll-lock';

function fakePage(scrollY: number, scrollbar = 0) {
  const calls: number[] = [];
  const covered: boolean[] = [];
  const bodyStyle: ScrollLockEnv['bodyStyle'] = { position: '', top: '', left: '', right: '', width: '', overflow: 'auto', paddingRight: '' };
  const env: ScrollLockEnv = {
    getScrollY: () => scrollY,
    scrollTo: (y) => {
      calls.push(y);
      scrollY = y;
    },
    getScrollbarWidth: () => scrollbar,
    bodyStyle,
    setCovered: (c) => covered.push(c),
  };
  return { env, bodyStyle, calls, covered, setScroll: (y: number) => (scrollY = y) };
}

describe('scroll lock', () => {
  it('freezes the page at its scroll position and restores it exactly on unlock', () => {
    const page = fakePage(1234, 15);
    const lock = createScrollLock(page.env);
    lock.lock();
    expect(page.bodyStyle.position).toBe('fixed');
    expect(page.bodyStyle.top).toBe('-1234px');
    expect(page.bodyStyle.overflow).toBe('hidden');
    expect(page.bodyStyle.paddingRight).toBe('15px');
    // A fixed body reports scrollY 0 while locked; the saved value must win.
    page.setScroll(0);
    lock.unlock();
    expect(page.calls).toEqual([1234]);
    expect(page.bodyStyle).toEqual({ position: '', top: '', left: '', right: '', width: '', overflow: 'auto', paddingRight: '' });
    expect(lock.isLocked()).toBe(false);
  });

  it('nested locks restore once, when the last one is released', () => {
    const page = fakePage(300);
    const lock = createScrollLock(page.env);
    lock.lock();
    lock.lock();
    lock.unlock();
    expect(page.bodyStyle.position).toBe('fixed');
    expect(page.calls).toEqual([]);
    lock.unlock();
    expect(page.calls).toEqual([300]);
    lock.unlock();
    expect(page.calls).toEqual([300]);
    // The page behind is covered from the first lock to the last unlock, said once each way.
    expect(page.covered).toEqual([true, false]);
  });
});
