/**
 * Red envelope shares: the "double average" random split (the one WeChat popularised). Each share
 * first gets the minimum; what is left over (`total - count * min`) is dealt out one share at a time,
 * each drawing a whole number from 0 up to twice the average of what is still left per share, and the
 * last share taking the rest. So every share is at least the minimum, the shares sum exactly to the
 * total, every share's expected value is the same (total / count), and no share can run away with
 * the pot. The shares are then shuffled, so the position of a share (the order grabs take them in)
 * says nothing about its size.
 */

/** `randomInt(n)`: a uniformly random whole number in [0, n). The gateway passes node:crypto's randomInt. */
export type RandomInt = (maxExclusive: number) => number;

export const RED_ENVELOPE_LIMITS = {
  /** Shares in one envelope. */
  MAX_COUNT: 20_000,
  /** Total of one envelope, minor units. */
  MAX_TOTAL: 1_000_000_000_00,
} as const;

/** Why a split is impossible, or null when it can be made. */
export function splitProblem(total: number, count: number, min: number): string | null {
  if (!Number.isSafeInteger(total) || total <= 0) return 'total must be a positive whole number of minor units';
  if (!Number.isSafeInteger(count) || count < 1) return 'count must be at least 1';
  if (!Number.isSafeInteger(min) || min < 1) return 'the minimum share must be at least 1 minor unit';
  if (count * min > total) return 'the total cannot give every share its minimum';
  return null;
}

/** The shares of an envelope: `count` whole numbers, each at least `min`, summing to `total`. */
export function splitRedEnvelope(total: number, count: number, min: number, randomInt: RandomInt): number[] {
  const problem = splitProblem(total, count, min);
  if (problem) throw new RangeError(problem);
  const shares = new Array<number>(count);
  let rest = total - count * min;
  for (let i = 0; i < count - 1; i++) {
    const left = count - i;
    // [0, 2 * rest / left], never more than what is left.
    const cap = Math.min(rest, Math.floor((2 * rest) / left));
    const extra = cap > 0 ? randomInt(cap + 1) : 0;
    shares[i] = min + extra;
    rest -= extra;
  }
  shares[count - 1] = min + rest;
  for (let i = count - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    const t = shares[i]!;
    shares[i] = shares[j]!;
    shares[j] = t;
  }
  return shares;
}
