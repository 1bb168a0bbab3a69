import type { FairStream } from './fair.ts';

/**
 * Punto banco from an 8-deck shoe, reshuffled every round (each round is its own provably fair
 * draw). Cards are 0..51 (rank = card % 13: 0 ace .. 12 king); values: ace 1, 2-9 face value, 10 and
 * pictures 0. Pays: player 1:1, banker 0.95:1, tie 8:1; on a tie, player and banker bets push.
 */
export const BACCARAT_SIDES = ['player', 'banker', 'tie'] as const;
export type BaccaratSide = (typeof BACCARAT_SIDES)[number];
export const BACCARAT_STAKES = [100, 500, 1_000, 5_000, 10_000] as const;
const DECKS = 8;

export const cardValue = (card: number) => {
  const rank = card % 13;
  return rank >= 9 ? 0 : rank + 1;
};
const total = (cards: readonly number[]) => cards.reduce((a, c) => a + cardValue(c), 0) % 10;

export type BaccaratHand = { player: number[]; banker: number[]; playerTotal: number; bankerTotal: number; winner: BaccaratSide };

/** Banker draws a third card? (the tableau, given the banker's total and the player's third card value). */
export function bankerDraws(bankerTotal: number, playerThird: number | null): boolean {
  if (playerThird === null) return bankerTotal <= 5;
  if (bankerTotal <= 2) return true;
  if (bankerTotal === 3) return playerThird !== 8;
  if (bankerTotal === 4) return playerThird >= 2 && playerThird <= 7;
  if (bankerTotal === 5) return playerThird >= 4 && playerThird <= 7;
  if (bankerTotal === 6) return playerThird === 6 || playerThird === 7;
  return false;
}

/** Play a coup from cards in deal order (player, banker, player, banker, then thirds as the rules ask). */
export function playCoup(next: () => number): BaccaratHand {
  const player = [next()];
  const banker = [next()];
  player.push(next());
  banker.push(next());
  const p2 = total(player);
  const b2 = total(banker);
  if (p2 < 8 && b2 < 8) {
    let third: number | null = null;
    if (p2 <= 5) {
      const c = next();
      player.push(c);
      third = cardValue(c);
    }
    if (bankerDraws(b2, third)) banker.push(next());
  }
  const pt = total(player);
  const bt = total(banker);
  return { player, banker, playerTotal: pt, bankerTotal: bt, winner: pt > bt ? 'player' : bt > pt ? 'banker' : 'tie' };
}

/** A coup dealt without replacement from a fresh 8-deck shoe drawn by the stream. */
export function dealCoup(rng: Pick<FairStream, 'int'>): BaccaratHand {
  const taken = new Map<number, number>();
  let left = 52 * DECKS;
  // Partial Fisher-Yates over the 416 shoe positions: only the drawn ones are remembered.
  const next = () => {
    const i = rng.int(left);
    left -= 1;
    const pick = taken.get(i) ?? i;
    taken.set(i, taken.get(left) ?? left);
    return pick % 52;
  };
  return playCoup(next);
}

/** What a bet returns (stake included; 0 when lost). Integer centavos: banker's 5% commission rounds down. */
export function baccaratReturn(side: BaccaratSide, stake: number, winner: BaccaratSide): number {
  if (winner === 'tie') return side === 'tie' ? stake * 9 : stake;
  if (side !== winner) return 0;
  return side === 'player' ? stake * 2 : stake + Math.floor((stake * 95) / 100);
}
