import { cardValue } from './baccarat.ts';
import { fairStream, hashSeed } from './fair.ts';

/**
 * Lucky 9 Duel (PVP1): the seated players play against each other. Each antes the table's fixed
 * stake; each gets two cards from one 52-card deck shuffled for the round; a hand is worth the sum
 * of its cards mod 10 (ace 1, 2-9 face value, 10 and pictures 0). The best hand takes the pot less a
 * 5% rake; equal best hands split it evenly; centavos that do not divide go to the house with the rake.
 */
export const PVP_TABLE = 'PVP1';
/** The table's fixed ante: ₱10. */
export const PVP_ANTE = 1_000;
export const PVP_RAKE_PERCENT = 5;
export const PVP_MAX_SEATS = 8;
export const PVP_MIN_PLAYERS = 2;
/** The deck is drawn with HMAC-SHA256(serverSeed, `${roundId}:${PVP_NONCE}`). */
export const PVP_NONCE = 1;

export const handValue = (cards: readonly number[]) => cards.reduce((a, c) => a + cardValue(c), 0) % 10;

/** The round's id at the wallet and in the deck's HMAC message. */
export const pvpRoundId = (table: string, roundNo: number) => `${table}-${roundNo}`;

/** A 52-card deck (cards 0..51) shuffled by Fisher-Yates with the round's fair stream. */
export function shuffledDeck(serverSeed: string, roundId: string): number[] {
  const rng = fairStream(serverSeed, roundId, PVP_NONCE);
  const deck = Array.from({ length: 52 }, (_, i) => i);
  for (let i = deck.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [deck[i], deck[j]] = [deck[j]!, deck[i]!];
  }
  return deck;
}

/** The pot of `players` antes: the rake (5%, rounded down), what each winner gets, and what the house keeps in all. */
export function splitPot(ante: number, players: number, winners: number) {
  const pot = ante * players;
  const rake = Math.floor((pot * PVP_RAKE_PERCENT) / 100);
  const share = winners > 0 ? Math.floor((pot - rake) / winners) : 0;
  return { pot, rake, share, houseTake: pot - share * winners };
}

export type PvpHand = { seat: number; cards: number[]; value: number; win: number };
export type PvpResult = { cancelled: boolean; hands: PvpHand[]; pot: number; rake: number; houseTake: number; winners: number[] };

/**
 * Deal a round to the seats (seat ids, in joining order): cards go round the table, one at a time,
 * twice, from the top of the shuffled deck. Fewer than two players: the round is cancelled.
 */
export function dealRound(serverSeed: string, roundId: string, seats: readonly number[], ante = PVP_ANTE): PvpResult {
  if (seats.length < PVP_MIN_PLAYERS) return { cancelled: true, hands: [], pot: 0, rake: 0, houseTake: 0, winners: [] };
  const deck = shuffledDeck(serverSeed, roundId);
  const cards = seats.map(() => [] as number[]);
  let top = 0;
  for (let round = 0; round < 2; round++) for (let i = 0; i < seats.length; i++) cards[i]!.push(deck[top++]!);
  const values = cards.map(handValue);
  const best = Math.max(...values);
  const winners = seats.filter((_, i) => values[i] === best);
  const { pot, rake, share, houseTake } = splitPot(ante, seats.length, winners.length);
  return {
    cancelled: false, pot, rake, houseTake, winners,
    hands: seats.map((seat, i) => ({ seat, cards: cards[i]!, value: values[i]!, win: values[i] === best ? share : 0 })),
  };
}

/** Anyone can check a round: the revealed seed matches the hash shown before, and it deals the same hands. */
export function verifyRound(r: { serverSeed: string; seedHash: string; roundId: string; seats: readonly number[]; result: PvpResult; ante?: number }): boolean {
  if (hashSeed(r.serverSeed) !== r.seedHash.toLowerCase()) return false;
  return JSON.stringify(dealRound(r.serverSeed, r.roundId, r.seats, r.ante)) === JSON.stringify(r.result);
}
