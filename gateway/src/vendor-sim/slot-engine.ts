import { createHash } from 'node:crypto';
import type { FairStream } from '../modules/house/fair.ts';
import { PAYLINES } from '../modules/house/slot.ts';

/**
 * The simulator's generic slot: 5 reels x 3 rows, the house slot's 10 paylines, left-to-right line
 * pays from 3 of a kind, symbol 0 is the wild (stands in for every symbol and pays on its own).
 * Everything else (how many symbols, their art, the strips, the paytable) is drawn from the game's
 * code, so each catalogue game has its own reels; the paytable is scaled towards an RTP between 94%
 * and 97% and the RTP then stated is the exact one computed from the strips and pays.
 */
export const SIM_SLOT_REELS = 5;
export const SIM_SLOT_ROWS = 3;
export const SIM_SLOT_STAKES = [100, 500, 1_000, 5_000, 10_000] as const;
export const SIM_LINES = PAYLINES;

const SHAPES = ['star', 'diamond', 'circle', 'heart', 'bell', 'crown', 'bar', 'gem', 'moon', 'leaf'] as const;
export type SimSymbol = { id: number; shape: (typeof SHAPES)[number] | 'wild'; hue: number; label: string };
export type SimSlot = {
  seed: string;
  symbols: SimSymbol[];
  /** strips[reel] = symbol ids. */
  strips: number[][];
  /** pays[symbol] = the line's pay for 3, 4, 5 of a kind, in hundredths of the total stake (a line bet is 10). */
  pays: [number, number, number][];
  /** Exact return to player (expected win / stake). */
  rtp: number;
  hue: number;
};

/** A small deterministic generator (sfc32) seeded from SHA-256 of the text. */
export function seededRandom(text: string): () => number {
  const h = createHash('sha256').update(text).digest();
  let a = h.readUInt32BE(0), b = h.readUInt32BE(4), c = h.readUInt32BE(8), d = h.readUInt32BE(12);
  return () => {
    a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
    const t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    const r = (t + d) | 0;
    c = (c + r) | 0;
    return (r >>> 0) / 0x1_0000_0000;
  };
}

/** The best pay of one line (symbol ids), in hundredths of the total stake. */
export function simLinePay(pays: readonly (readonly number[])[], line: readonly number[]): number {
  let wilds = 0;
  while (wilds < line.length && line[wilds] === 0) wilds++;
  const wildPay = wilds >= 3 ? pays[0]![wilds - 3]! : 0;
  if (wilds === line.length) return wildPay;
  const target = line[wilds]!;
  let n = wilds + 1;
  while (n < line.length && (line[n] === target || line[n] === 0)) n++;
  const pay = n >= 3 ? pays[target]![n - 3]! : 0;
  return Math.max(wildPay, pay);
}

/**
 * The exact RTP: on each payline every reel shows a uniformly random stop of its strip, independently
 * of the other reels, so the expected line pay is a sum over symbol combinations weighted by their
 * frequencies; all lines have the same expectation, and the stake is lines x line bet.
 */
export function simExactRtp(strips: readonly (readonly number[])[], pays: readonly (readonly number[])[]): number {
  const freq = strips.map((strip) => {
    const m = new Map<number, number>();
    for (const s of strip) m.set(s, (m.get(s) ?? 0) + 1);
    return [...m.entries()].map(([s, c]) => [s, c / strip.length] as const);
  });
  let expected = 0;
  const line = [0, 0, 0, 0, 0];
  const walk = (reel: number, p: number) => {
    if (reel === SIM_SLOT_REELS) {
      expected += p * simLinePay(pays, line);
      return;
    }
    for (const [s, q] of freq[reel]!) {
      line[reel] = s;
      walk(reel + 1, p * q);
    }
  };
  walk(0, 1);
  return (expected * SIM_LINES.length) / PAY_UNITS;
}

/** Pays are in hundredths of the stake (whole centavos for a whole-peso stake; a smaller one's win is rounded down, simSlotWin). */
export const PAY_UNITS = 100;

const cache = new Map<string, SimSlot>();

/** The slot of a game, the same every time for the same vendor and game code (built once, then kept). */
export function slotFor(vendor: string, gameCode: string): SimSlot {
  const seed = `${vendor}:${gameCode}`;
  const hit = cache.get(seed);
  if (hit) return hit;
  const slot = buildSlot(vendor, gameCode);
  if (cache.size > 2_000) cache.clear();
  cache.set(seed, slot);
  return slot;
}

/** Draws a game's slot from its vendor and code alone. */
export function buildSlot(vendor: string, gameCode: string): SimSlot {
  const seed = `${vendor}:${gameCode}`;
  const rnd = seededRandom(`slot:${seed}`);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const nSymbols = int(6, 8); // wild + 5..7 paying symbols
  const hue = int(0, 359);
  const shapes = [...SHAPES].sort(() => rnd() - 0.5);
  const symbols: SimSymbol[] = [{ id: 0, shape: 'wild', hue: (hue + 180) % 360, label: 'W' }];
  for (let i = 1; i < nSymbols; i++) symbols.push({ id: i, shape: shapes[i - 1]!, hue: (hue + i * int(25, 60)) % 360, label: String.fromCharCode(64 + i) });
  // Weights: the wild is rare, high symbols (small ids) rarer than low ones.
  const strips = Array.from({ length: SIM_SLOT_REELS }, (_, reel) => {
    const counts = symbols.map((s) => (s.id === 0 ? int(1, reel === 2 ? 3 : 2) : 1 + s.id + int(0, 2)));
    const order = symbols.map((s) => s.id).sort(() => rnd() - 0.5);
    const left = [...counts];
    const out: number[] = [];
    const total = counts.reduce((a, b) => a + b, 0);
    while (out.length < total) for (const id of order) if (left[id]! > 0) {
      out.push(id);
      left[id]! -= 1;
    }
    return out;
  });
  // Base pays: rarer symbols pay more; then scaled towards the target RTP (whole line bets, at least 1).
  const base: [number, number, number][] = symbols.map((s) => {
    const w = s.id === 0 ? 12 : Math.max(1, 10 - s.id) + rnd() * 2;
    return [w * 20, w * 60, w * 200];
  });
  const target = 0.94 + int(0, 30) / 1000;
  let k = 1;
  let pays: [number, number, number][] = [];
  let rtp = 0;
  // The RTP is homogeneous in the pays but for rounding: a few steps land within 0.3% of the target.
  for (let i = 0; i < 8; i++) {
    pays = base.map((p) => p.map((x) => Math.max(1, Math.round(x * k))) as [number, number, number]);
    rtp = simExactRtp(strips, pays);
    if (Math.abs(rtp - target) < 0.003) break;
    k *= target / rtp;
  }
  return { seed, symbols, strips, pays, rtp, hue };
}

export type SimSpin = { stops: number[]; grid: number[][]; lines: { line: number; pay: number }[]; multiplier: number };

/** A spin from a provably fair stream: one uniform stop per reel, left to right. */
export function spinSlot(slot: SimSlot, rng: Pick<FairStream, 'int'>): SimSpin {
  const stops = slot.strips.map((s) => rng.int(s.length));
  return evaluateSlot(slot, stops);
}

export function evaluateSlot(slot: SimSlot, stops: readonly number[]): SimSpin {
  const grid = stops.map((stop, r) => {
    const strip = slot.strips[r]!;
    return Array.from({ length: SIM_SLOT_ROWS }, (_, row) => strip[(stop + row) % strip.length]!);
  });
  const lines: { line: number; pay: number }[] = [];
  let multiplier = 0;
  SIM_LINES.forEach((rows, i) => {
    const pay = simLinePay(slot.pays, rows.map((row, reel) => grid[reel]![row]!));
    if (pay > 0) {
      lines.push({ line: i, pay });
      multiplier += pay;
    }
  });
  return { stops: [...stops], grid, lines, multiplier };
}

/** Win in centavos for a stake (the total bet over the 10 lines; a whole number of pesos). */
/**
 * A spin's win in whole centavos, rounded down. A game's catalogue minimum (₱0.20) is a stake of no whole
 * peso: its win came out fractional, the wallet refused it, and the round stayed open with the stake taken.
 */
export const simSlotWin = (stake: number, multiplier: number) => Math.floor((stake * multiplier) / PAY_UNITS);
