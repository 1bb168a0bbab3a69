import { useSyncExternalStore } from 'react';

/** The visitor's "reduce motion" setting (OS or browser): what moves by itself stays still. */
const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

const subscribe = (cb: () => void) => {
  const mq = window.matchMedia(REDUCED_MOTION);
  mq.addEventListener('change', cb);
  return () => mq.removeEventListener('change', cb);
};

/** True while the visitor asks for reduced motion; follows a change of the setting live. */
export function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(REDUCED_MOTION).matches, () => false);
}
