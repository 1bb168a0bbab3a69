import { useMediaQuery } from './media-query';

/** True while the visitor asks for reduced motion (OS or browser setting): what moves by itself stays still. */
export function usePrefersReducedMotion(): boolean {
  return useMediaQuery('(prefers-reduced-motion: reduce)');
}
