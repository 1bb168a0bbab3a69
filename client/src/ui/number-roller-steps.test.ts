import { afterEach, describe, expect, it, vi } from 'vitest';
import { LIMITS } from '@portal/contracts/domain/constants';
import { formatRollerValue, randomInt, rollerNextStep, rollerStart, startRoller } from './number-roller-steps';

/** Largest value Math.random can return. */
const TOP = 1 - 2 ** -53;

/** A deterministic random source cycling through the given values. */
const seq = (...values: number[]) => {
  let i = 0;
  return () => values[i++ % values.length] ?? 0;
};

describe('randomInt', () => {
  it('covers both ends of the range', () => {
    expect(randomInt(3, 5, () => 0)).toBe(3);
    expect(randomInt(3, 5, () => TOP)).toBe(5);
  });
});

describe('rollerStart', () => {
  it('uses the fixed value when given', () => {
    expect(rollerStart({ value: 1234.5, min: 0, max: 1, decimals: 2 }, () => 0.5)).toBe(123450);
  });
  it('draws between min and max with the home range and 2 decimals', () => {
    const range = { min: LIMITS.JACKPOT_HOME_MIN, max: LIMITS.JACKPOT_HOME_MAX, decimals: 2 };
    expect(rollerStart(range, () => 0)).toBe(LIMITS.JACKPOT_HOME_MIN * 100);
    expect(rollerStart(range, () => TOP)).toBe(LIMITS.JACKPOT_HOME_MAX * 100);
    for (let i = 0; i < 200; i++) {
      const v = rollerStart(range, Math.random);
      expect(v).toBeGreaterThanOrEqual(LIMITS.JACKPOT_HOME_MIN * 100);
      expect(v).toBeLessThanOrEqual(LIMITS.JACKPOT_HOME_MAX * 100);
      expect(Number.isInteger(v)).toBe(true);
    }
  });
});

describe('rollerNextStep', () => {
  it('waits 3, 4 or 5 s and adds 1000 to 1500', () => {
    expect(rollerNextStep(0, seq(0, 0))).toEqual({ delayMs: 3000, increment: 1000 });
    expect(rollerNextStep(0, seq(0.5, TOP))).toEqual({ delayMs: 4000, increment: 1500 });
    expect(rollerNextStep(2, seq(TOP, 0))).toEqual({ delayMs: 5000, increment: 100000 });
    for (let i = 0; i < 200; i++) {
      const s = rollerNextStep(2, Math.random);
      expect([3000, 4000, 5000]).toContain(s.delayMs);
      expect(s.increment).toBeGreaterThanOrEqual(100000);
      expect(s.increment).toBeLessThanOrEqual(150000);
    }
  });
});

describe('formatRollerValue', () => {
  it('adds separators and decimals', () => {
    expect(formatRollerValue(5110199637, 2)).toBe('51,101,996.37');
    expect(formatRollerValue(5110199600, 2)).toBe('51,101,996.00');
    expect(formatRollerValue(1400000, 0)).toBe('1,400,000');
    expect(formatRollerValue(999, 0)).toBe('999');
    expect(formatRollerValue(5, 2)).toBe('0.05');
  });
});

describe('startRoller', () => {
  afterEach(() => vi.useRealTimers());

  it('emits the start, then one increment per random interval, and stops', () => {
    vi.useFakeTimers();
    const values: number[] = [];
    // start draws 0 (min); each step draws interval index then increment.
    const stop = startRoller({ min: 100, max: 200, decimals: 0 }, (v) => values.push(v), seq(0, 0, 0, 0.5, TOP));
    expect(values).toEqual([100]);
    vi.advanceTimersByTime(2999);
    expect(values).toEqual([100]);
    vi.advanceTimersByTime(1);
    expect(values).toEqual([100, 1100]); // 3 s, +1000
    stop();
    vi.advanceTimersByTime(60_000);
    expect(values).toEqual([100, 1100]);
  });

  it('keeps rising with random steps inside the limits', () => {
    vi.useFakeTimers();
    const values: number[] = [];
    const stop = startRoller({ value: 51101996, min: 0, max: 0, decimals: 2 }, (v) => values.push(v));
    vi.advanceTimersByTime(60_000);
    stop();
    expect(values[0]).toBe(5110199600);
    expect(values.length).toBeGreaterThanOrEqual(1 + Math.floor(60 / 5));
    expect(values.length).toBeLessThanOrEqual(1 + 60 / 3);
    for (let i = 1; i < values.length; i++) {
      const d = (values[i] ?? 0) - (values[i - 1] ?? 0);
      expect(d).toBeGreaterThanOrEqual(100000);
      expect(d).toBeLessThanOrEqual(150000);
    }
  });
});
