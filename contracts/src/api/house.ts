import { z } from 'zod';
import { defineCall } from './envelope.ts';

/**
 * The house game server's browser API (/house/api/...). The game page opens with the launch token
 * from /wps/game/launchGame and trades it for a house game session; that session travels in the
 * `X-House-Session` header. The member's portal session token never reaches the game page.
 * Money is integer minor units of the merchant's currency (centavos for PHP, đồng for VND).
 */
export const HOUSE_API = '/house/api';
export const HOUSE_SESSION_HEADER = 'x-house-session';
export const HOUSE_GAME_CODES = ['SLOT1', 'BACC1', 'FISH1', 'PVP1'] as const;
export type THouseGameCode = (typeof HOUSE_GAME_CODES)[number];

const ZHouseToken = z.string().min(20).max(128);
const ZClientSeed = z.string().trim().min(1).max(64).regex(/^[A-Za-z0-9_.:-]+$/);

export const ZHouseOpenBody = z.object({ token: ZHouseToken, game: z.enum(HOUSE_GAME_CODES) }).strict();
/** Free play: a guest or trial user (portal session optional), module FREEPLAY3. */
export const ZHouseFreePlayBody = z.object({ game: z.enum(HOUSE_GAME_CODES) }).strict();
/**
 * The session again; with `game`, only a session of that game (the page of another game opened by
 * URL, reload or back never gets the last game's session).
 */
export const ZHouseStateBody = z.object({ game: z.enum(HOUSE_GAME_CODES).optional() }).strict();

/** Provably fair state: the hash of the current server seed (shown before play), the client seed, the next nonce. */
export const ZFairState = z.object({ serverSeedHash: z.string(), clientSeed: z.string(), nonce: z.number().int().nonnegative() });

export const ZHouseSession = z.object({
  /** The house game session token (X-House-Session). */
  session: z.string(),
  game: z.enum(HOUSE_GAME_CODES),
  gameName: z.string(),
  nickname: z.string(),
  currency: z.string(),
  balance: z.number().int(),
  /** Play money: never touches the ledger. */
  freePlay: z.boolean(),
  stakes: z.array(z.number().int().positive()),
  fair: ZFairState,
  /** The slot's stated return to player (0.9616 = 96.16%). */
  rtp: z.number().nullable(),
});
export type THouseSession = z.infer<typeof ZHouseSession>;

export const ZSpinBody = z.object({ stake: z.number().int().positive() }).strict();
export const ZSlotLineWin = z.object({ line: z.number().int(), symbol: z.string(), count: z.number().int(), pay: z.number().int() });
export const ZSpinResult = z.object({
  roundId: z.string(),
  stake: z.number().int(),
  win: z.number().int(),
  /** grid[reel][row]: W wild, 7, B bar, L bell, M melon, G grape, O orange, C cherry. */
  grid: z.array(z.array(z.string())),
  stops: z.array(z.number().int()),
  lines: z.array(ZSlotLineWin),
  balance: z.number().int(),
  /** The seed hash, client seed and nonce this round used. */
  serverSeedHash: z.string(),
  clientSeed: z.string(),
  nonce: z.number().int(),
  bigWin: z.boolean(),
});
export type TSpinResult = z.infer<typeof ZSpinResult>;

export const FISH_IDS = ['clown', 'puffer', 'turtle', 'shark', 'whale'] as const;
export const ZShootBody = z.object({ fish: z.enum(FISH_IDS), stake: z.number().int().positive() }).strict();
export const ZShootResult = z.object({
  roundId: z.string(),
  fish: z.enum(FISH_IDS),
  stake: z.number().int(),
  caught: z.boolean(),
  /** What the fish pays, times the stake (2, 5, 10, 30, 100). */
  multiple: z.number().int(),
  win: z.number().int(),
  balance: z.number().int(),
  serverSeedHash: z.string(),
  clientSeed: z.string(),
  nonce: z.number().int(),
  bigWin: z.boolean(),
});
export type TShootResult = z.infer<typeof ZShootResult>;

export const ZRotateSeedBody = z.object({ clientSeed: ZClientSeed.optional() }).strict();
export const ZRotateSeedValue = z.object({
  /** The seed used until now, revealed: SHA-256 of it equals `revealedHash`. */
  revealedServerSeed: z.string(),
  revealedHash: z.string(),
  /** Rounds played with the revealed seed (nonces 1..rounds). */
  rounds: z.number().int().nonnegative(),
  fair: ZFairState,
});
export type TRotateSeedValue = z.infer<typeof ZRotateSeedValue>;

export const BACCARAT_SIDES = ['player', 'banker', 'tie'] as const;
export const ZBaccaratBetBody = z.object({ side: z.enum(BACCARAT_SIDES), stake: z.number().int().positive() }).strict();
export const ZBaccaratHand = z.object({
  /** Cards 0..51: suit = floor(card / 13) (spades, hearts, diamonds, clubs), rank = card % 13 (0 ace .. 12 king). */
  player: z.array(z.number().int()),
  banker: z.array(z.number().int()),
  playerTotal: z.number().int(),
  bankerTotal: z.number().int(),
  winner: z.enum(BACCARAT_SIDES),
});
export const ZBaccaratState = z.object({
  table: z.string(),
  roundNo: z.number().int(),
  /** betting: bets open until closesAt; result: dealt, the next round opens at nextAt. */
  phase: z.enum(['betting', 'result']),
  closesAt: z.string(),
  nextAt: z.string().nullable(),
  /** The server's clock, so the page counts down without trusting the device clock. */
  serverNow: z.string(),
  /** SHA-256 of this round's server seed, shown while bets are open. */
  seedHash: z.string(),
  /** Revealed with the result: the cards are HMAC-SHA256(seed, `${table}:${roundNo}`) draws from a fresh 8-deck shoe. */
  serverSeed: z.string().nullable(),
  result: ZBaccaratHand.nullable(),
  myBets: z.array(z.object({ side: z.enum(BACCARAT_SIDES), stake: z.number().int(), win: z.number().int().nullable(), status: z.string() })),
  balance: z.number().int(),
  /** Winners of the previous rounds, newest first. */
  history: z.array(z.enum(BACCARAT_SIDES)),
  stakes: z.array(z.number().int()),
});
export type TBaccaratState = z.infer<typeof ZBaccaratState>;

const NoBody = z.object({}).strict();

/**
 * Lucky 9 Duel (PVP1): seated players against each other. Every seat antes the table's fixed stake
 * (a wallet bet); two cards each from one 52-card deck shuffled with HMAC-SHA256(seed, `${roundId}:1`);
 * value = sum mod 10; the best hand takes the pot less the rake, ties split it; fewer than two
 * players: the round is cancelled and every ante rolled back.
 */
export const ZPvpSeat = z.object({
  /** The seat's id: the deal goes round the seats in this order (ascending). */
  seat: z.number().int(),
  /** Masked, except your own. */
  nickname: z.string(),
  me: z.boolean(),
  /** Your cards once dealt; everyone's at the result. */
  cards: z.array(z.number().int()).nullable(),
  value: z.number().int().nullable(),
  win: z.number().int().nullable(),
  status: z.string(),
});
export const ZPvpState = z.object({
  table: z.string(),
  roundNo: z.number().int(),
  /** The wallet's round id, also the deck's HMAC message prefix. */
  roundId: z.string(),
  /** joining: seats open until closesAt; dealt: you see your cards; result: all hands, winners, seed. */
  phase: z.enum(['joining', 'dealt', 'result']),
  closesAt: z.string(),
  revealAt: z.string().nullable(),
  nextAt: z.string().nullable(),
  serverNow: z.string(),
  seedHash: z.string(),
  serverSeed: z.string().nullable(),
  ante: z.number().int(),
  rakePercent: z.number(),
  maxSeats: z.number().int(),
  minPlayers: z.number().int(),
  seats: z.array(ZPvpSeat),
  joined: z.boolean(),
  cancelled: z.boolean(),
  pot: z.number().int(),
  /** At the result: the 5% rake and all the house keeps (rake plus centavos a split leaves over). */
  rake: z.number().int().nullable(),
  houseTake: z.number().int().nullable(),
  winners: z.array(z.number().int()),
  balance: z.number().int(),
});
export type TPvpState = z.infer<typeof ZPvpState>;

export const houseCalls = {
  open: defineCall({ method: 'POST', path: `${HOUSE_API}/session`, auth: false, body: ZHouseOpenBody, value: ZHouseSession }),
  freePlay: defineCall({ method: 'POST', path: `${HOUSE_API}/freeplay`, auth: false, body: ZHouseFreePlayBody, value: ZHouseSession }),
  /** With `game`: null when the page has no live session of that game (it starts one); without: 401 GAME_TOKEN_INVALID. */
  state: defineCall({ method: 'POST', path: `${HOUSE_API}/state`, auth: false, body: ZHouseStateBody, value: ZHouseSession.nullable() }),
  spin: defineCall({ method: 'POST', path: `${HOUSE_API}/slot/spin`, auth: false, body: ZSpinBody, value: ZSpinResult }),
  rotateSeed: defineCall({ method: 'POST', path: `${HOUSE_API}/seed`, auth: false, body: ZRotateSeedBody, value: ZRotateSeedValue }),
  shoot: defineCall({ method: 'POST', path: `${HOUSE_API}/fish/shoot`, auth: false, body: ZShootBody, value: ZShootResult }),
  baccaratState: defineCall({ method: 'POST', path: `${HOUSE_API}/baccarat/state`, auth: false, body: NoBody, value: ZBaccaratState }),
  baccaratBet: defineCall({ method: 'POST', path: `${HOUSE_API}/baccarat/bet`, auth: false, body: ZBaccaratBetBody, value: ZBaccaratState }),
  pvpState: defineCall({ method: 'POST', path: `${HOUSE_API}/pvp/state`, auth: false, body: NoBody, value: ZPvpState }),
  pvpJoin: defineCall({ method: 'POST', path: `${HOUSE_API}/pvp/join`, auth: false, body: NoBody, value: ZPvpState }),
};
