/**
 * Leading-edge throttle: the first call runs, calls within `ms` after it are dropped (captcha
 * refresh by click: at most once a second).
 */
export function createThrottle(ms: number, now: () => number = Date.now) {
  let last = -Infinity;
  return function attempt(run: () => void): boolean {
    const t = now();
    if (t - last < ms) return false;
    last = t;
    run();
    return true;
  };
}
