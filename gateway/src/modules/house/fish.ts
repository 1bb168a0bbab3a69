import type { FairStream } from './fair.ts';

/**
 * "Lucky Fishing": each shot costs the stake and aims at one fish; a caught fish pays its
 * multiple of the stake. The catch chance is set so every fish returns exactly 96%:
 * caught when a uniform draw in [0, 1,000,000) falls below 960,000 / multiple (whole numbers).
 */
export const FISH_RTP = 0.96;
export const FISH_DRAW = 1_000_000;
export const FISH = [
  { id: 'clown', multiple: 2 },
  { id: 'puffer', multiple: 5 },
  { id: 'turtle', multiple: 10 },
  { id: 'shark', multiple: 30 },
  { id: 'whale', multiple: 100 },
] as const;
export type FishId = (typeof FISH)[number]['id'];
export const FISH_STAKES = [100, 500, 1_000, 5_000] as const;

const threshold = (multiple: number) => Math.floor((FISH_RTP * FISH_DRAW) / multiple);

/** The exact return of a fish: P(catch) x multiple. */
export const fishRtp = (multiple: number) => (threshold(multiple) / FISH_DRAW) * multiple;

export function shootFish(fish: FishId, rng: Pick<FairStream, 'int'>): { caught: boolean; multiple: number; draw: number } {
  const f = FISH.find((x) => x.id === fish)!;
  const draw = rng.int(FISH_DRAW);
  return { caught: draw < threshold(f.multiple), multiple: f.multiple, draw };
}
