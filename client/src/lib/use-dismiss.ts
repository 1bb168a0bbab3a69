import { useEffect, type RefObject } from 'react';

/**
 * While `isOpen`, Escape or a press outside `root` calls `close` (a menu, a folded bar): the account
 * menu and the phone's customer-service bar close alike.
 */
export function useDismiss(root: RefObject<HTMLElement | null>, isOpen: boolean, close: () => void): void {
  useEffect(() => {
    if (!isOpen) return;
    const onDown = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) close();
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close();
    };
    document.addEventListener('pointerdown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onDown);
      document.removeEventListener('keydown', onKey);
    };
    // `close` is a new function each render; what it does is the same
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [isOpen, root]);
}
