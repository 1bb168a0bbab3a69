/**
 * Leading-edge throttle (spec section 9: favourite toggle once per 1000 ms, trailing calls
 * ignored): `tryAcquire()` is true for the first call and then false until `ms` have passed.
 */
export function createLeadingThrottle(ms: number, now: () => number = Date.now) {
  let last = Number.NEGATIVE_INFINITY;
  return {
    tryAcquire(): boolean {
      const t = now();
      if (t - last < ms) return false;
      last = t;
      return true;
    },
  };
}

/** The ids after toggling one: added when absent, removed when present. */
export function toggledIds(ids: readonly string[], nodeId: string): string[] {
  return ids.includes(nodeId) ? ids.filter((id) => id !== nodeId) : [...ids, nodeId];
}
