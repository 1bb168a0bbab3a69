import { randomBytes } from 'node:crypto';
import { BACCARAT_SIDES, BACCARAT_STAKES, baccaratReturn, dealCoup, type BaccaratSide } from '../modules/house/baccarat.ts';
import { fairStream, hashSeed, newServerSeed } from '../modules/house/fair.ts';
import { FISH, FISH_RTP, FISH_STAKES, shootFish, type FishId } from '../modules/house/fish.ts';
import { FREE_PLAY_BALANCE, houseStakes, isBigWin } from '../modules/house/house-service.ts';
import { scaleCentavos } from '@portal/contracts/domain/money';
import { dealRound, PVP_RAKE_PERCENT } from '../modules/house/lucky9.ts';
import type { SimGameType } from './secrets.ts';
import { SIM_SLOT_STAKES, seededRandom, simSlotWin, slotFor, spinSlot } from './slot-engine.ts';
import { SimWalletRefused, SimWalletUnreachable, type SimWallet } from './sim-wallet.ts';
import {
  DICE_SIDES, drawLottery, fixtureFor, lotteryFor, lotteryPickError, payOf, playFixture, sportOf, type Fixture, type LotteryGame, type Pick3, type Sport,
} from './draw-engines.ts';

/** A refusal for the game page: a code (translated there) and an HTTP status. */
export class SimError extends Error {
  constructor(readonly code: string, readonly status: number, message = code) {
    super(message);
  }
}

export const PVP_STAKES = [100, 500, 1_000, 5_000] as const;
export const LOTTERY_STAKES = [100, 500, 1_000, 5_000] as const;
export const MATCH_STAKES = [100, 500, 1_000, 5_000, 10_000] as const;
const isLottery = (t: SimGameType): t is 'LOTT' | 'ELOTT' => t === 'LOTT' || t === 'ELOTT';
const isMatch = (t: SimGameType): t is 'SPORTS' | 'ESPORTS' | 'COCKFIGHT' => t === 'SPORTS' || t === 'ESPORTS' || t === 'COCKFIGHT';
/** A simulated game session lives at most as long as the portal's game token (4 hours). */
/** How long a game session lives without being taken up again. */
export const SIM_SESSION_MS = 4 * 3600_000;
const SESSION_MS = SIM_SESSION_MS;
const MAX_SESSIONS = 5_000;
const HISTORY = 20;

/**
 * What a round's line in the page's history says, as data: the page words it in its own language
 * (the simulator sends no English).
 */
export type SimRoundDetail =
  | { kind: 'slot'; lines: number }
  | { kind: 'fish'; fish: string; caught: boolean; multiple: number }
  | { kind: 'live'; side: string; winner: string; player: number; banker: number }
  /** A lottery ticket: the numbers picked, or the side (big, small, odd, even), and the draw. */
  | { kind: 'ticket'; pick: Array<number | string>; drawn: number[] }
  /** A match or fight: its sides and the score ('2-1', 'KO 5', 'decision', a fight's length '3:05'). */
  | { kind: 'match'; home: string; away: string; score: string }
  | { kind: 'pvp'; you: number; others: number[] };
export type SimRound = { roundId: string; at: string; stake: number; win: number; bigWin: boolean; detail: SimRoundDetail };
type Session = {
  id: string; merchant: string; vendor: string; game: string; type: SimGameType; name: string;
  playerId: string | null; nickname: string; token: string | null; currency: string;
  /** The game's minimum bet (minor units), 0 when the launch named none. */
  minBet: number;
  free: boolean; balance: number; serverSeed: string; clientSeed: string; nonce: number; history: SimRound[]; expires: number; busy: boolean;
  /** A lottery's game (from its type and name), a match's or fight's sport; null for the other types. */
  lottery: LotteryGame | null; sport: Sport | null;
};

/** What a game of this vendor and code looks like: its table of opponents, its art hue; from the code alone. */
export function gameLook(vendor: string, game: string) {
  const rnd = seededRandom(`look:${vendor}:${game}`);
  return { hue: Math.floor(rnd() * 360), opponents: 1 + Math.floor(rnd() * 3) };
}

/**
 * The stakes a game type offers in the session's currency: written in centavos, another currency gets
 * them at its demo rate (scaleCentavos: a VND slot's smallest stake is ₫500, never ₫1).
 */
export function stakesOf(type: SimGameType, currency = 'PHP', minBet = 0): readonly number[] {
  const centavos = isLottery(type) ? LOTTERY_STAKES : isMatch(type) ? MATCH_STAKES
    : type === 'RNG' ? SIM_SLOT_STAKES : type === 'FISH' ? FISH_STAKES : type === 'LIVE' ? BACCARAT_STAKES : PVP_STAKES;
  const all = houseStakes(centavos, currency);
  // The game's minimum bet is the smallest stake, then the type's stakes above it (a table listed from ₱20
  // took ₱1, and offered no ₱20).
  return minBet > 0 ? [minBet, ...all.filter((x) => x > minBet)] : all;
}

/** The match or fight the player bets on next (round nonce + 1). */
const nextFixture = (s: Session): Fixture | null => (s.sport ? fixtureFor(s.sport, s.vendor, s.game, s.clientSeed, s.nonce + 1) : null);

/**
 * The simulated vendors' game server: sessions in memory (a vendor's own state; the money is on the
 * portal's ledger), one round per request, money moved only through the portal's wallet API.
 */
export function createSimGames(wallet: SimWallet, log: { warn(o: unknown, m?: string): void } = console) {
  const sessions = new Map<string, Session>();
  /** Wins the wallet could not be reached for: retried with the same transaction id until accepted. */
  const pending: { merchant: string; vendor: string; body: Parameters<SimWallet['win']>[2] }[] = [];

  const newId = () => randomBytes(24).toString('base64url');
  function put(s: Omit<Session, 'id' | 'serverSeed' | 'clientSeed' | 'nonce' | 'history' | 'expires' | 'busy' | 'lottery' | 'sport'>): Session {
    if (sessions.size >= MAX_SESSIONS) {
      const now = Date.now();
      for (const [k, v] of sessions) if (v.expires < now) sessions.delete(k);
      if (sessions.size >= MAX_SESSIONS) sessions.delete(sessions.keys().next().value!);
    }
    const full: Session = {
      ...s, id: newId(), serverSeed: newServerSeed(), clientSeed: randomBytes(8).toString('hex'), nonce: 0, history: [], expires: Date.now() + SESSION_MS, busy: false,
      lottery: isLottery(s.type) ? lotteryFor(s.type, s.name) : null,
      sport: isMatch(s.type) ? sportOf(s.type, s.name) : null,
    };
    sessions.set(full.id, full);
    return full;
  }
  function get(id: string | undefined): Session {
    const s = id ? sessions.get(id) : undefined;
    if (!s || s.expires < Date.now()) throw new SimError('GAME_TOKEN_INVALID', 401, 'The game session has ended');
    return s;
  }

  function view(s: Session) {
    const look = gameLook(s.vendor, s.game);
    const slot = s.type === 'RNG' ? slotFor(s.vendor, s.game) : null;
    return {
      session: s.id, type: s.type, game: s.game, vendor: s.vendor, name: s.name, nickname: s.nickname, currency: s.currency,
      free: s.free, balance: s.balance, stakes: [...stakesOf(s.type, s.currency, s.minBet)], history: s.history, hue: slot?.hue ?? look.hue,
      rtp: slot ? slot.rtp : s.type === 'FISH' ? FISH_RTP : s.lottery ? s.lottery.rtp : null,
      fair: { serverSeedHash: hashSeed(s.serverSeed), clientSeed: s.clientSeed, nonce: s.nonce },
      slot: slot ? { symbols: slot.symbols, pays: slot.pays } : null,
      fish: s.type === 'FISH' ? FISH.map((f) => ({ id: f.id, multiple: f.multiple })) : null,
      sides: s.type === 'LIVE' ? [...BACCARAT_SIDES] : null,
      opponents: s.type === 'PVP' ? look.opponents : null,
      rakePercent: s.type === 'PVP' ? PVP_RAKE_PERCENT : null,
      lottery: s.lottery,
      diceSides: s.lottery?.kind === 'dice' ? [...DICE_SIDES] : null,
      fixture: nextFixture(s),
    };
  }

  const asPageError = (err: unknown): never => {
    if (err instanceof SimWalletRefused) throw new SimError(err.code, err.status, err.message);
    if (err instanceof SimWalletUnreachable) throw new SimError('CONFLICT', 409, 'The round could not complete; no money moved');
    throw err;
  };

  /** One round: the outcome is fixed first (provably fair: server seed, client seed, nonce), then bet and win through the wallet. */
  async function play(id: string | undefined, input: { stake: number; fish?: string; side?: string; pick?: number[] }) {
    const s = get(id);
    if (!stakesOf(s.type, s.currency, s.minBet).includes(input.stake)) throw new SimError('VALIDATION', 400, 'Stake not offered');
    if (s.busy) throw new SimError('CONFLICT', 409, 'A round is in progress');
    s.busy = true;
    try {
      const nonce = s.nonce + 1;
      const rng = fairStream(s.serverSeed, s.clientSeed, nonce);
      const roundId = `sim-${randomBytes(6).toString('hex')}-${nonce}`;
      const stake = input.stake;
      let win = 0;
      let detail: SimRoundDetail;
      let outcome: Record<string, unknown>;
      if (s.type === 'RNG') {
        const spin = spinSlot(slotFor(s.vendor, s.game), rng);
        win = simSlotWin(stake, spin.multiplier);
        outcome = { grid: spin.grid, lines: spin.lines };
        detail = { kind: 'slot', lines: spin.lines.length };
      } else if (s.type === 'FISH') {
        const fish = FISH.find((f) => f.id === input.fish);
        if (!fish) throw new SimError('VALIDATION', 400, 'Unknown fish');
        const shot = shootFish(fish.id as FishId, rng);
        win = shot.caught ? stake * shot.multiple : 0;
        outcome = { fish: fish.id, caught: shot.caught, multiple: shot.multiple };
        detail = { kind: 'fish', fish: fish.id, caught: shot.caught, multiple: shot.multiple };
      } else if (s.type === 'LIVE') {
        if (!(BACCARAT_SIDES as readonly string[]).includes(input.side ?? '')) throw new SimError('VALIDATION', 400, 'Unknown side');
        const side = input.side as BaccaratSide;
        const hand = dealCoup(rng);
        win = baccaratReturn(side, stake, hand.winner);
        outcome = { side, ...hand };
        detail = { kind: 'live', side, winner: hand.winner, player: hand.playerTotal, banker: hand.bankerTotal };
      } else if (s.lottery) {
        const bad = lotteryPickError(s.lottery, input);
        if (bad) throw new SimError('VALIDATION', 400, bad);
        const draw = drawLottery(s.lottery, input, rng);
        win = payOf(stake, draw.pays);
        outcome = { pick: input.pick ?? null, side: input.side ?? null, ...draw };
        detail = { kind: 'ticket', pick: input.pick ?? [input.side ?? ''], drawn: draw.drawn.slice(0, 20) };
      } else if (s.sport) {
        const fixture = fixtureFor(s.sport, s.vendor, s.game, s.clientSeed, nonce);
        const side = input.side as Pick3;
        if (!['home', 'draw', 'away'].includes(input.side ?? '') || fixture.odds[side] === null) throw new SimError('VALIDATION', 400, 'Unknown side');
        const match = playFixture(fixture, side, rng);
        win = payOf(stake, match.pays);
        outcome = { side, fixture, ...match };
        detail = { kind: 'match', home: fixture.home, away: fixture.away, score: match.score };
      } else {
        const seats = Array.from({ length: 1 + gameLook(s.vendor, s.game).opponents }, (_, i) => i);
        const r = dealRound(s.serverSeed, `${s.clientSeed}:${roundId}`, seats, stake);
        win = r.hands[0]!.win;
        outcome = { hands: r.hands, pot: r.pot, rake: r.rake };
        detail = { kind: 'pvp', you: r.hands[0]!.value, others: r.hands.slice(1).map((h) => h.value) };
      }
      s.nonce = nonce;
      let balance: number;
      if (s.free) {
        // Play money: only this session's balance moves, never the ledger.
        if (s.balance < stake) throw new SimError('INSUFFICIENT_FUNDS', 409, 'Not enough play money');
        balance = s.balance - stake + win;
      } else {
        balance = await playReal(s, roundId, stake, win);
      }
      s.balance = balance;
      const round: SimRound = { roundId, at: new Date().toISOString(), stake, win, bigWin: !s.free && isBigWin(stake, win, s.currency), detail };
      s.history.unshift(round);
      s.history.length = Math.min(s.history.length, HISTORY);
      return { round, outcome, balance, nonce, fixture: nextFixture(s) };
    } finally {
      s.busy = false;
    }
  }

  async function playReal(s: Session, roundId: string, stake: number, win: number): Promise<number> {
    const base = { playerId: s.playerId!, roundId, gameCode: s.game };
    try {
      await wallet.bet(s.merchant, s.vendor, { ...base, transactionId: `${roundId}-bet`, amount: stake, token: s.token! });
    } catch (err) {
      if (err instanceof SimWalletUnreachable) {
        // The bet may have arrived: cancel it (a rollback before its bet is remembered, so a late bet is refused).
        await wallet.rollback(s.merchant, s.vendor, { transactionId: `${roundId}-rb`, playerId: s.playerId!, roundId, refTransactionId: `${roundId}-bet` })
          .catch((e: unknown) => log.warn({ err: e, roundId }, 'vendor-sim rollback not delivered'));
      }
      if (err instanceof SimWalletRefused && err.code === 'GAME_TOKEN_INVALID') s.expires = 0;
      return asPageError(err);
    }
    const body = { ...base, transactionId: `${roundId}-win`, amount: win, token: s.token! };
    try {
      return (await wallet.win(s.merchant, s.vendor, body)).balance;
    } catch (err) {
      if (err instanceof SimWalletUnreachable) pending.push({ merchant: s.merchant, vendor: s.vendor, body });
      // A win the wallet refused: the round is cancelled, its stake given back, not left open with the stake taken.
      if (err instanceof SimWalletRefused) {
        log.warn({ err, roundId }, 'vendor-sim win refused: the bet is rolled back');
        await wallet.rollback(s.merchant, s.vendor, { transactionId: `${roundId}-rb`, playerId: s.playerId!, roundId, refTransactionId: `${roundId}-bet` })
          .catch((e: unknown) => log.warn({ err: e, roundId }, 'vendor-sim rollback not delivered'));
      }
      return asPageError(err);
    }
  }

  return {
    /** The page hands over the launch code; it is traded once for the game session token, which stays here. */
    async open(p: { token: string; game: string; vendor: string; operator: string; type: SimGameType; name: string; minBet?: number | undefined }) {
      const a = await wallet.authenticate(p.operator, p.vendor, p.token).catch(asPageError);
      if (a.gameCode !== p.game) throw new SimError('GAME_TOKEN_INVALID', 401, 'This launch is for another game');
      const s = put({
        merchant: p.operator, vendor: p.vendor, game: p.game, type: p.type, name: p.name, playerId: a.playerId, nickname: a.nickname, token: a.token,
        currency: a.currency, free: false, balance: a.balance, minBet: p.minBet ?? 0,
      });
      return view(s);
    },
    /** Free play: play money in this session only. */
    /** Free play: play money in this session only, in the operator's currency (its launch URL says which; PHP when it does not). */
    free(p: { game: string; vendor: string; operator: string; type: SimGameType; name: string; currency?: string | undefined; minBet?: number | undefined }) {
      const currency = p.currency ?? 'PHP';
      const s = put({ merchant: p.operator, vendor: p.vendor, game: p.game, type: p.type, name: p.name, playerId: null, nickname: 'Guest', token: null, currency, free: true, balance: scaleCentavos(FREE_PLAY_BALANCE, currency), minBet: p.minBet ?? 0 });
      return view(s);
    },
    /** The session, its balance fetched again from the wallet with the game token (a revoked token ends it). */
    async state(id: string | undefined) {
      const s = get(id);
      if (!s.free) {
        try {
          s.balance = (await wallet.balance(s.merchant, s.vendor, s.playerId!, s.token!)).balance;
        } catch (err) {
          if (err instanceof SimWalletRefused && err.code === 'GAME_TOKEN_INVALID') s.expires = 0;
          asPageError(err);
        }
      }
      return view(s);
    },
    play,
    /** Deliver wins that could not reach the wallet (same transaction id). */
    async retryPending() {
      for (const p of pending.splice(0)) {
        await wallet.win(p.merchant, p.vendor, p.body).catch((err: unknown) => {
          if (err instanceof SimWalletUnreachable) pending.push(p);
          else log.warn({ err, roundId: p.body.roundId }, 'vendor-sim win refused');
        });
      }
    },
    sessionCount: () => sessions.size,
  };
}
export type SimGames = ReturnType<typeof createSimGames>;
