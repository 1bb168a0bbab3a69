import type { FairStream } from '../modules/house/fair.ts';
import { seededRandom } from './slot-engine.ts';

/**
 * The vendor simulator's lottery, sports and cockfight games. Each round is settled at once (the
 * simulator has no schedule of its own): the draw, the match or the fight is decided by the round's
 * provably fair stream (server seed, client seed, nonce), after the bet. What the player bets on is
 * public before the bet: a lottery's prize table, and for a match or a fight the fixture and its
 * odds, derived from the game, the client seed and the round's nonce.
 *
 * Pays are in hundredths of the stake (what a winning bet returns in all, stake included):
 * win = floor(stake x pays / 100). Every game's exact return to player is below 100%.
 */
type Rng = Pick<FairStream, 'int'>;
export const PAY_UNITS = 100;
/** No prize pays more than 100,000 times the stake (a lotto's top tier is capped there). */
export const MAX_PAYS = 100_000 * PAY_UNITS;
export const payOf = (stake: number, pays: number) => Math.floor((stake * pays) / PAY_UNITS);

// ---------------------------------------------------------------- lottery

/** A prize tier: `match` numbers (lotto) or last digits in order (digits) return `pays` hundredths. */
export type Prize = { match: number; pays: number; probability: number };
export type DiceSide = 'big' | 'small' | 'odd' | 'even';
export const DICE_SIDES: readonly DiceSide[] = ['big', 'small', 'odd', 'even'];
export type LotteryGame =
  /** Pick N digits (0-9) in order; all N, or the last N-1, in order win. */
  | { kind: 'digits'; digits: number; prizes: Prize[]; rtp: number }
  /** Pick `pick` numbers of 1..`of`; `drawn` numbers are drawn; prizes by how many of the pick were drawn. */
  | { kind: 'lotto'; pick: number; of: number; drawn: number; prizes: Prize[]; rtp: number }
  /** Three dice; big (11-17), small (4-10), odd or even total; any triple loses. */
  | { kind: 'dice'; pays: number; rtp: number }
  /** A race of `runners`; pick the winner. */
  | { kind: 'race'; runners: number; pays: number; rtp: number };

/** Of n, k: as a double (exact up to 2^53; the sizes here stay far below). */
export function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let r = 1;
  for (let i = 1; i <= Math.min(k, n - k); i++) r = (r * (n - i + 1)) / i;
  return Math.round(r);
}

/** P(exactly k of the player's `pick` numbers are among the `drawn` of `of`). */
export function lottoMatchProbability(pick: number, of: number, drawn: number, k: number): number {
  return (choose(drawn, k) * choose(of - drawn, pick - k)) / choose(of, pick);
}

/** The share of the stake each prize tier gives back, top tier first (a lotto's; digits have two tiers). */
const LOTTO_SHARES = [0.3, 0.2, 0.2, 0.18];
const DIGITS_SHARES = [0.55, 0.25];

/** Prize tiers from their chances: each tier returns its share of the stakes; a tier that would pay less than the stake back is left out. */
function tiered(probabilities: { match: number; probability: number }[], shares: readonly number[]): Prize[] {
  return probabilities
    .filter((p) => p.probability > 0)
    .slice(0, shares.length)
    .map((p, i) => ({ ...p, pays: Math.min(MAX_PAYS, Math.floor((shares[i]! / p.probability) * PAY_UNITS)) }))
    .filter((p) => p.pays >= PAY_UNITS);
}

export function digitsGame(digits: number): LotteryGame {
  // All N in order: 1 in 10^N; the last N-1 in order but not all: 9 in 10^N.
  const prizes = tiered([
    { match: digits, probability: 10 ** -digits },
    { match: digits - 1, probability: 9 * 10 ** -digits },
  ], DIGITS_SHARES);
  return { kind: 'digits', digits, prizes, rtp: prizes.reduce((a, p) => a + (p.probability * p.pays) / PAY_UNITS, 0) };
}

export function lottoGame(pick: number, of: number, drawn: number): LotteryGame {
  const tiers: { match: number; probability: number }[] = [];
  for (let k = pick; k >= 1; k--) tiers.push({ match: k, probability: lottoMatchProbability(pick, of, drawn, k) });
  const prizes = tiered(tiers, LOTTO_SHARES);
  return { kind: 'lotto', pick, of, drawn, prizes, rtp: prizes.reduce((a, p) => a + (p.probability * p.pays) / PAY_UNITS, 0) };
}

/** Big and small (or odd and even) without a triple: 105 of the 216 rolls each. */
export const DICE_WIN_ROLLS = 105;
export const DICE_PAYS = 200;
export const RACE_PAYS = 970;

const FAST_3: LotteryGame = { kind: 'dice', pays: DICE_PAYS, rtp: (DICE_WIN_ROLLS / 216) * (DICE_PAYS / PAY_UNITS) };

/** Which lottery a catalogue game is, from its type and name (Swertres: 3 digits, Lotto 6/45: 6 of 45, Fast 3: dice...). */
export function lotteryFor(type: 'LOTT' | 'ELOTT', name: string): LotteryGame {
  const n = name.toLowerCase();
  const kOfM = /(\d+)\s*\/\s*(\d+)/.exec(n);
  if (kOfM) {
    const pick = Math.min(10, Math.max(1, Number(kOfM[1])));
    const of = Math.min(99, Math.max(pick + 1, Number(kOfM[2])));
    return lottoGame(pick, of, pick);
  }
  if (/ez2|\b2d\b/.test(n)) return digitsGame(2);
  if (/swertres|\b3d\b/.test(n)) return digitsGame(3);
  if (/\b4d\b/.test(n)) return digitsGame(4);
  if (/pick\s*5/.test(n)) return digitsGame(5);
  if (/fast\s*3/.test(n)) return FAST_3;
  if (/racing|lucky\s*10/.test(n)) return { kind: 'race', runners: 10, pays: RACE_PAYS, rtp: RACE_PAYS / PAY_UNITS / 10 };
  if (/keno/.test(n)) return /80/.test(n) ? lottoGame(5, 80, 20) : lottoGame(5, 40, 10);
  if (/speed/.test(n)) return lottoGame(5, 35, 5);
  if (/super/.test(n)) return lottoGame(6, 49, 6);
  return type === 'ELOTT' ? FAST_3 : digitsGame(3);
}

export type LotteryBet = { pick?: number[]; side?: string };
export type LotteryOutcome = { drawn: number[]; matched: number; pays: number };

/** Checks the player's pick for this game; returns a message when it is not a valid ticket. */
export function lotteryPickError(g: LotteryGame, bet: LotteryBet): string | null {
  const pick = bet.pick ?? [];
  if (g.kind === 'digits') {
    if (pick.length !== g.digits || pick.some((d) => !Number.isInteger(d) || d < 0 || d > 9)) return `Pick ${g.digits} digits from 0 to 9`;
  } else if (g.kind === 'lotto') {
    if (pick.length !== g.pick || new Set(pick).size !== pick.length || pick.some((d) => !Number.isInteger(d) || d < 1 || d > g.of)) return `Pick ${g.pick} different numbers from 1 to ${g.of}`;
  } else if (g.kind === 'dice') {
    if (!(DICE_SIDES as readonly string[]).includes(bet.side ?? '')) return 'Pick big, small, odd or even';
  } else if (pick.length !== 1 || !Number.isInteger(pick[0]) || pick[0]! < 1 || pick[0]! > g.runners) return `Pick one runner from 1 to ${g.runners}`;
  return null;
}

/** The draw (from the round's fair stream) and what the ticket returns, in hundredths of the stake. */
export function drawLottery(g: LotteryGame, bet: LotteryBet, rng: Rng): LotteryOutcome {
  const pick = bet.pick ?? [];
  if (g.kind === 'digits') {
    const drawn = Array.from({ length: g.digits }, () => rng.int(10));
    // How many of the last digits agree, in order (all, or all but the first, are the prize tiers).
    let matched = 0;
    for (let i = g.digits - 1; i >= 0 && drawn[i] === pick[i]; i--) matched++;
    return { drawn, matched, pays: g.prizes.find((p) => p.match === matched)?.pays ?? 0 };
  }
  if (g.kind === 'lotto') {
    const pool = Array.from({ length: g.of }, (_, i) => i + 1);
    for (let i = 0; i < g.drawn; i++) {
      const j = i + rng.int(g.of - i);
      [pool[i], pool[j]] = [pool[j]!, pool[i]!];
    }
    const drawn = pool.slice(0, g.drawn).sort((a, b) => a - b);
    const set = new Set(drawn);
    const matched = pick.filter((p) => set.has(p)).length;
    return { drawn, matched, pays: g.prizes.find((p) => p.match === matched)?.pays ?? 0 };
  }
  if (g.kind === 'dice') {
    const drawn = [1 + rng.int(6), 1 + rng.int(6), 1 + rng.int(6)];
    const total = drawn[0]! + drawn[1]! + drawn[2]!;
    const triple = drawn[0] === drawn[1] && drawn[1] === drawn[2];
    const side = bet.side as DiceSide;
    const won = !triple && (side === 'big' ? total >= 11 : side === 'small' ? total <= 10 : side === 'odd' ? total % 2 === 1 : total % 2 === 0);
    return { drawn, matched: won ? 1 : 0, pays: won ? g.pays : 0 };
  }
  // A race: the finishing order (a shuffle of the runners); the first wins.
  const order = Array.from({ length: g.runners }, (_, i) => i + 1);
  for (let i = order.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const won = order[0] === pick[0];
  return { drawn: order, matched: won ? 1 : 0, pays: won ? g.pays : 0 };
}

// ---------------------------------------------------------------- sports, e-sports, cockfight

export type Sport = 'football' | 'basketball' | 'boxing' | 'esports' | 'cockfight';
export type Pick3 = 'home' | 'draw' | 'away';
/** A match (or a fight: home = meron, away = wala) with decimal odds in hundredths; draw null where there is none to bet. */
export type Fixture = { sport: Sport; home: string; away: string; odds: { home: number; draw: number | null; away: number }; chances: { home: number; draw: number; away: number } };

/** Bookmaker's margin on a match: each side's odds are 1 / (chance x 1.06). */
const MATCH_MARGIN = 1.06;
/** Sabong: a draw happens 1 fight in 20 and pays 8 to 1 on the draw bet; meron and wala bets are returned on a draw. */
export const FIGHT_DRAW_CHANCE = 0.05;
export const FIGHT_DRAW_PAYS = 900;
/** What a meron or wala bet returns on average: the house keeps 8% (its plasada). */
const FIGHT_RETURN = 0.92;

export function sportOf(type: 'SPORTS' | 'ESPORTS' | 'COCKFIGHT', name: string): Sport {
  if (type === 'COCKFIGHT') return 'cockfight';
  if (type === 'ESPORTS') return 'esports';
  const n = name.toLowerCase();
  if (/basket|pba/.test(n)) return 'basketball';
  if (/boxing/.test(n)) return 'boxing';
  return 'football';
}

const SIDES: Record<Sport, readonly string[]> = {
  football: ['Manila Lions', 'Cebu Sharks', 'Davao Eagles', 'Iloilo Tigers', 'Baguio Pines', 'Quezon Royals', 'Laguna Waves', 'Pampanga Storm', 'Bohol Rangers', 'Taguig United'],
  basketball: ['Makati Blaze', 'Pasig Titans', 'Cavite Comets', 'Batangas Bulls', 'Bulacan Kings', 'Rizal Rockets', 'Zamboanga Suns', 'Tarlac Hawks'],
  boxing: ['"Kid" Santos', 'Rey "Bomba" Cruz', 'Mark Dela Peña', 'Joel "Hammer" Reyes', 'Nonito Bautista', 'Ramon "Flash" Garcia', 'Efren Villanueva', 'Danny Mendoza'],
  esports: ['Team Bagwis', 'Alon Gaming', 'Kidlat Esports', 'Tala Five', 'Bakunawa', 'Agila Squad', 'Sinag Gaming', 'Habagat'],
  cockfight: ['Red Kelso', 'Sweater Ace', 'Hatch Warrior', 'Roundhead King', 'Lemon 84', 'Claret Blaze', 'Grey Ghost', 'Butcher Boy', 'Radio Star', 'Asil Thunder'],
};

const oddsOf = (chance: number, margin: number) => Math.max(101, Math.floor(PAY_UNITS / (chance * margin)));

/**
 * The fixture of round `nonce` of this game: sides and odds, derived from the game and the client
 * seed, so the page shows it before the bet and anyone can derive it again.
 */
export function fixtureFor(sport: Sport, vendor: string, game: string, clientSeed: string, nonce: number): Fixture {
  const rnd = seededRandom(`fixture:${vendor}:${game}:${clientSeed}:${nonce}`);
  const names = SIDES[sport];
  const a = Math.floor(rnd() * names.length);
  const b = (a + 1 + Math.floor(rnd() * (names.length - 1))) % names.length;
  // How much stronger home is, -1..1.
  const edge = rnd() * 2 - 1;
  if (sport === 'cockfight') {
    const home = (1 - FIGHT_DRAW_CHANCE) * (0.5 + 0.2 * edge);
    const away = 1 - FIGHT_DRAW_CHANCE - home;
    // Meron returns FIGHT_RETURN on average: chance x odds + draw chance x 1 (the stake back).
    const side = (p: number) => Math.max(101, Math.floor(((FIGHT_RETURN - FIGHT_DRAW_CHANCE) / p) * PAY_UNITS));
    return { sport, home: names[a]!, away: names[b]!, odds: { home: side(home), draw: FIGHT_DRAW_PAYS, away: side(away) }, chances: { home, draw: FIGHT_DRAW_CHANCE, away } };
  }
  const draw = sport === 'football' ? 0.27 - 0.12 * Math.abs(edge) : 0;
  const home = (1 - draw) * (0.5 + 0.35 * edge);
  const away = 1 - draw - home;
  return {
    sport, home: names[a]!, away: names[b]!,
    odds: { home: oddsOf(home, MATCH_MARGIN), draw: draw > 0 ? oddsOf(draw, MATCH_MARGIN) : null, away: oddsOf(away, MATCH_MARGIN) },
    chances: { home, draw, away },
  };
}

/** The exact return of a bet on this side of this fixture (below 1 for every side). */
export function fixtureReturn(f: Fixture, side: Pick3): number {
  const odds = f.odds[side];
  if (odds === null) return 0;
  const win = f.chances[side] * (odds / PAY_UNITS);
  // A meron or wala bet is returned on a draw.
  return f.sport === 'cockfight' && side !== 'draw' ? win + f.chances.draw : win;
}

export type MatchOutcome = { result: Pick3; score: string; pays: number };

/** The match or fight, decided by the round's fair stream with the fixture's chances; what the bet returns. */
export function playFixture(f: Fixture, side: Pick3, rng: Rng): MatchOutcome {
  const u = rng.int(1_000_000) / 1_000_000;
  const result: Pick3 = u < f.chances.home ? 'home' : u < f.chances.home + f.chances.draw ? 'draw' : 'away';
  const score = scoreOf(f.sport, result, rng);
  let pays = 0;
  if (side === result) pays = f.odds[side] ?? 0;
  else if (f.sport === 'cockfight' && result === 'draw') pays = PAY_UNITS; // stake returned
  return { result, score, pays };
}

function scoreOf(sport: Sport, result: Pick3, rng: Rng): string {
  const order = (w: number, l: number) => (result === 'away' ? `${l}-${w}` : `${w}-${l}`);
  if (sport === 'football') {
    if (result === 'draw') {
      const g = rng.int(4);
      return `${g}-${g}`;
    }
    const w = 1 + rng.int(4);
    return order(w, rng.int(w));
  }
  if (sport === 'basketball') {
    const w = 85 + rng.int(40);
    return order(w, w - 1 - rng.int(20));
  }
  if (sport === 'boxing') return rng.int(3) === 0 ? 'decision' : `KO ${1 + rng.int(12)}`;
  if (sport === 'esports') return order(2, rng.int(2));
  // Sabong: the fight's length.
  return `${1 + rng.int(4)}:${String(rng.int(60)).padStart(2, '0')}`;
}
