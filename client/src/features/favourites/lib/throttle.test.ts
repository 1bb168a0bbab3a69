import { describe, expect, it } from 'vitest';
import { createLeadingThrottle, toggledIds } from './throttle';

describe('favourite toggle throttle', () => {
  it('lets one call through per 1000 ms and ignores the ones in between (no trailing call)', () => {
    let now = 0;
    const throttle = createLeadingThrottle(1000, () => now);
    expect(throttle.tryAcquire()).toBe(true);
    now = 300;
    expect(throttle.tryAcquire()).toBe(false);
    now = 999;
    expect(throttle.tryAcquire()).toBe(false);
    now = 1000;
    expect(throttle.tryAcquire()).toBe(true);
    now = 1500;
    expect(throttle.tryAcquire()).toBe(false);
  });

  it('toggles an id in the list', () => {
    expect(toggledIds(['a', 'b'], 'a')).toEqual(['b']);
    expect(toggledIds(['b'], 'a')).toEqual(['b', 'a']);
  });
});
