import type { FairStream } from './fair.ts';

/**
 * "Lucky Peso Reels": 5 reels x 3 rows, 10 fixed paylines, left-to-right line pays from 3 of a kind,
 * the wild (W) stands in for every symbol and pays on its own. Pure functions, no I/O: the RTP is
 * computed exactly from the strips and the paytable, and a simulation test checks it.
 */
export const SLOT_SYMBOLS = ['W', '7', 'B', 'L', 'M', 'G', 'O', 'C'] as const;
export type SlotSymbol = (typeof SLOT_SYMBOLS)[number];
export const SLOT_ROWS = 3;
export const SLOT_REELS = 5;

/** Fixed stakes in centavos: ₱1, ₱5, ₱10, ₱50, ₱100. Each is the total bet over all lines. */
export const SLOT_STAKES = [100, 500, 1_000, 5_000, 10_000] as const;

/** Row index (0 top .. 2 bottom) per reel for each payline. */
export const PAYLINES: ReadonlyArray<readonly [number, number, number, number, number]> = [
  [1, 1, 1, 1, 1],
  [0, 0, 0, 0, 0],
  [2, 2, 2, 2, 2],
  [0, 1, 2, 1, 0],
  [2, 1, 0, 1, 2],
  [1, 0, 0, 0, 1],
  [1, 2, 2, 2, 1],
  [0, 0, 1, 2, 2],
  [2, 2, 1, 0, 0],
  [1, 2, 1, 0, 1],
];

/** Pays in line bets (total bet / 10) for 3, 4 and 5 of a kind from the left. */
export const PAYTABLE: Record<SlotSymbol, readonly [number, number, number]> = {
  W: [25, 100, 300],
  '7': [20, 60, 250],
  B: [15, 40, 150],
  L: [10, 30, 100],
  M: [8, 20, 60],
  G: [6, 15, 50],
  O: [5, 12, 40],
  C: [5, 10, 30],
};

const strip = (counts: Record<SlotSymbol, number>, order: readonly SlotSymbol[]): SlotSymbol[] => {
  // Spread each symbol over the strip (round-robin over the order), so no long runs of one symbol.
  const left = { ...counts };
  const out: SlotSymbol[] = [];
  while (out.length < Object.values(counts).reduce((a, b) => a + b, 0)) {
    for (const s of order) if (left[s] > 0) {
      out.push(s);
      left[s] -= 1;
    }
  }
  return out;
};
const ORDER: readonly SlotSymbol[] = ['C', 'O', 'G', 'M', 'L', 'B', '7', 'W'];

/** Symbols per strip: 24 stops on the outer reels; the middle reel has one more wild and more low symbols (28). */
const OUTER: Record<SlotSymbol, number> = { W: 2, '7': 2, B: 2, L: 3, M: 3, G: 4, O: 4, C: 4 };
const MIDDLE: Record<SlotSymbol, number> = { W: 3, '7': 2, B: 2, L: 3, M: 3, G: 4, O: 5, C: 6 };

export const REEL_STRIPS: readonly SlotSymbol[][] = [strip(OUTER, ORDER), strip(OUTER, ORDER), strip(MIDDLE, ORDER), strip(OUTER, ORDER), strip(OUTER, ORDER)];

/** The RTP this game states to players: the exact figure from `exactRtp()`, rounded to 4 decimals. */
export const SLOT_STATED_RTP = 0.9616;

/** The best pay of one line's five symbols, in line bets: the symbol paid, how many from the left, the pay. */
export function lineWin(s: readonly SlotSymbol[]): { symbol: SlotSymbol; count: number; pay: number } {
  let wilds = 0;
  while (wilds < s.length && s[wilds] === 'W') wilds++;
  const wildPay = wilds >= 3 ? PAYTABLE.W[wilds - 3]! : 0;
  if (wilds === s.length) return { symbol: 'W', count: wilds, pay: wildPay };
  const target = s[wilds]!;
  let n = wilds + 1;
  while (n < s.length && (s[n] === target || s[n] === 'W')) n++;
  const pay = n >= 3 ? PAYTABLE[target][n - 3]! : 0;
  return wildPay > pay ? { symbol: 'W', count: wilds, pay: wildPay } : { symbol: target, count: n, pay };
}
export const linePay = (s: readonly SlotSymbol[]): number => lineWin(s).pay;

export type SlotLineWin = { line: number; symbol: SlotSymbol; count: number; pay: number };
export type SlotResult = {
  /** Top stop index per reel. */
  stops: number[];
  /** Visible window: grid[reel][row]. */
  grid: SlotSymbol[][];
  lines: SlotLineWin[];
  /** Total win in line bets. */
  multiplier: number;
};

export function windowOf(stops: readonly number[]): SlotSymbol[][] {
  return stops.map((stop, r) => {
    const strip = REEL_STRIPS[r]!;
    return Array.from({ length: SLOT_ROWS }, (_, row) => strip[(stop + row) % strip.length]!);
  });
}

export function evaluate(stops: readonly number[]): SlotResult {
  const grid = windowOf(stops);
  const lines: SlotLineWin[] = [];
  let multiplier = 0;
  PAYLINES.forEach((rows, i) => {
    const w = lineWin(rows.map((row, reel) => grid[reel]![row]!));
    if (w.pay > 0) {
      lines.push({ line: i, ...w });
      multiplier += w.pay;
    }
  });
  return { stops: [...stops], grid, lines, multiplier };
}

/** Reel stops from a provably fair stream: one uniform draw per reel, left to right. */
export function stopsFrom(rng: Pick<FairStream, 'int'>): number[] {
  return REEL_STRIPS.map((s) => rng.int(s.length));
}

/** Win in centavos for a stake (the total bet over all lines). */
export function slotWin(stake: number, multiplier: number): number {
  return (stake / PAYLINES.length) * multiplier;
}

/**
 * The exact RTP: on every payline each reel shows a uniformly random stop of its strip, so the
 * expected line pay is a sum over symbol combinations weighted by their counts; the RTP is that
 * expectation (in line bets) times the lines, over the stake (lines x line bet).
 */
export function exactRtp(): number {
  const freq = REEL_STRIPS.map((strip) => {
    const m = new Map<SlotSymbol, number>();
    for (const s of strip) m.set(s, (m.get(s) ?? 0) + 1);
    return [...m.entries()].map(([s, c]) => [s, c / strip.length] as const);
  });
  let expected = 0;
  const walk = (reel: number, syms: SlotSymbol[], p: number) => {
    if (reel === SLOT_REELS) {
      expected += p * linePay(syms);
      return;
    }
    for (const [s, q] of freq[reel]!) walk(reel + 1, [...syms, s], p * q);
  };
  walk(0, [], 1);
  return expected;
}

/**
 * The total pay of a spin in line bets, without building the result: the same rules as `evaluate`,
 * allocation-free, for million-spin simulations.
 */
export function spinMultiplier(stops: readonly number[]): number {
  let total = 0;
  const line: SlotSymbol[] = ['W', 'W', 'W', 'W', 'W'];
  for (const rows of PAYLINES) {
    for (let r = 0; r < SLOT_REELS; r++) {
      const strip = REEL_STRIPS[r]!;
      line[r] = strip[(stops[r]! + rows[r]!) % strip.length]!;
    }
    total += linePay(line);
  }
  return total;
}
