import { LIMITS } from '@portal/contracts/domain/constants';

/** A source of uniform numbers in [0, 1), like Math.random. Injected so tests are deterministic. */
export type RandomSource = () => number;

export type RollerRange = {
  /** Fixed start value; when absent a random start between min and max is drawn. */
  value?: number;
  min: number;
  max: number;
  decimals: number;
};

/** Integer in [lo, hi], both inclusive. */
export function randomInt(lo: number, hi: number, random: RandomSource): number {
  const a = Math.ceil(Math.min(lo, hi));
  const b = Math.floor(Math.max(lo, hi));
  return a + Math.min(b - a, Math.floor(random() * (b - a + 1)));
}

/**
 * The roller counts in integer "scaled" units (value x 10^decimals) so repeated
 * additions never drift the way floats would.
 */
export function scaleOf(decimals: number): number {
  return 10 ** Math.max(0, Math.trunc(decimals));
}

/** Starting value, in scaled units: the fixed value when given, else random in [min, max]. */
export function rollerStart(range: RollerRange, random: RandomSource): number {
  const scale = scaleOf(range.decimals);
  if (range.value !== undefined && Number.isFinite(range.value)) return Math.round(range.value * scale);
  return randomInt(range.min * scale, range.max * scale, random);
}

export type RollerStep = {
  /** Wait before this step, ms: 3, 4 or 5 s picked at random. */
  delayMs: number;
  /** Amount added, scaled units: random between 1000 and 1500 at the roller's precision. */
  increment: number;
};

export function rollerNextStep(decimals: number, random: RandomSource): RollerStep {
  const scale = scaleOf(decimals);
  const intervals = LIMITS.JACKPOT_INTERVALS_S;
  const seconds = intervals[randomInt(0, intervals.length - 1, random)] ?? intervals[0];
  return {
    delayMs: seconds * 1000,
    increment: randomInt(LIMITS.JACKPOT_STEP_MIN * scale, LIMITS.JACKPOT_STEP_MAX * scale, random),
  };
}

/** Scaled units to display text: thousands separators and fixed decimals, e.g. 5110199637 -> "51,101,996.37". */
export function formatRollerValue(scaled: number, decimals: number): string {
  const scale = scaleOf(decimals);
  const whole = Math.floor(scaled / scale).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  if (decimals <= 0) return whole;
  const frac = (scaled % scale).toString().padStart(decimals, '0');
  return `${whole}.${frac}`;
}

export type TimerApi = {
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
};

/**
 * Runs the roller: emits the start value at once, then after each random 3/4/5 s delay
 * emits the value plus a random increment. Returns a stop function.
 */
export function startRoller(
  range: RollerRange,
  onValue: (scaled: number) => void,
  random: RandomSource = Math.random,
  timers: TimerApi = {
    setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
    clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof globalThis.setTimeout>),
  },
): () => void {
  let current = rollerStart(range, random);
  let handle: unknown = null;
  let stopped = false;
  onValue(current);
  const schedule = () => {
    const step = rollerNextStep(range.decimals, random);
    handle = timers.setTimeout(() => {
      if (stopped) return;
      current += step.increment;
      onValue(current);
      schedule();
    }, step.delayMs);
  };
  schedule();
  return () => {
    stopped = true;
    if (handle !== null) timers.clearTimeout(handle);
  };
}
