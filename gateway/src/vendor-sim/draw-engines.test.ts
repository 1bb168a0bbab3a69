import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fairStream } from '../modules/house/fair.ts';
import {
  DICE_SIDES, PAY_UNITS, choose, digitsGame, drawLottery, fixtureFor, fixtureReturn, lotteryFor, lotteryPickError, lottoGame, lottoMatchProbability, playFixture,
  sportOf, type LotteryGame, type Pick3, type Sport,
} from './draw-engines.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const catalogue = JSON.parse(readFileSync(path.join(ROOT, 'infra/seed/catalogue.json'), 'utf8')) as { games: { gameType: string; gameName: string; isGame: string }[] };

/** An rng that answers the given integers in turn (to enumerate every outcome). */
const scripted = (values: number[]) => ({ int: (n: number) => {
  const v = values.shift();
  if (v === undefined || v >= n) throw new Error(`scripted rng: ${v} for ${n}`);
  return v;
} });

describe('vendor simulator: lotteries', () => {
  it('gives every catalogue lottery game a real game with a return below 100%', () => {
    const names = catalogue.games.filter((g) => (g.gameType === 'LOTT' || g.gameType === 'ELOTT') && g.isGame === 'GAME');
    expect(names.length).toBeGreaterThan(50);
    const kinds = new Set<string>();
    for (const g of names) {
      const game = lotteryFor(g.gameType as 'LOTT' | 'ELOTT', g.gameName);
      kinds.add(game.kind);
      expect(game.rtp, g.gameName).toBeGreaterThan(0.4);
      expect(game.rtp, g.gameName).toBeLessThan(1);
    }
    expect([...kinds].sort()).toEqual(['dice', 'digits', 'lotto', 'race']);
    expect(lotteryFor('LOTT', 'Lotto 6/45')).toMatchObject({ kind: 'lotto', pick: 6, of: 45, drawn: 6 });
    expect(lotteryFor('LOTT', 'Swertres')).toMatchObject({ kind: 'digits', digits: 3 });
    expect(lotteryFor('LOTT', 'EZ2')).toMatchObject({ kind: 'digits', digits: 2 });
    expect(lotteryFor('ELOTT', 'Fast 3 2')).toMatchObject({ kind: 'dice' });
    expect(lotteryFor('ELOTT', 'Keno 80')).toMatchObject({ kind: 'lotto', pick: 5, of: 80, drawn: 20 });
  });

  it('states the exact return of a digits game: every draw enumerated', () => {
    for (const digits of [2, 3]) {
      const g = digitsGame(digits);
      if (g.kind !== 'digits') throw new Error('digits');
      const pick = Array.from({ length: digits }, (_, i) => (i * 7) % 10);
      let paid = 0;
      for (let n = 0; n < 10 ** digits; n++) {
        const drawn = String(n).padStart(digits, '0').split('').map(Number);
        paid += drawLottery(g, { pick }, scripted(drawn)).pays;
      }
      expect(paid / 10 ** digits / PAY_UNITS).toBeCloseTo(g.rtp, 12);
      // The exact number pays the top prize, the last digits the second.
      expect(drawLottery(g, { pick }, scripted([...pick])).matched).toBe(digits);
      expect(drawLottery(g, { pick }, scripted([(pick[0]! + 1) % 10, ...pick.slice(1)])).pays).toBe(g.prizes[1]!.pays);
    }
  });

  it('counts lotto matches with the right chances: the formula against every draw of a small lotto', () => {
    // 3 picked of 10, 4 drawn: all C(10,4) = 210 draws.
    const pick = [2, 5, 9];
    const counts = [0, 0, 0, 0];
    const walk = (from: number, chosen: number[]) => {
      if (chosen.length === 4) {
        counts[pick.filter((p) => chosen.includes(p)).length]!++;
        return;
      }
      for (let n = from; n <= 10; n++) walk(n + 1, [...chosen, n]);
    };
    walk(1, []);
    expect(counts.reduce((a, b) => a + b)).toBe(choose(10, 4));
    for (let k = 0; k <= 3; k++) expect(lottoMatchProbability(3, 10, 4, k)).toBeCloseTo(counts[k]! / 210, 12);
    const g = lottoGame(6, 45, 6);
    expect(Array.from({ length: 7 }, (_, k) => lottoMatchProbability(6, 45, 6, k)).reduce((a, b) => a + b)).toBeCloseTo(1, 12);
    if (g.kind !== 'lotto') throw new Error('lotto');
    // Every prize pays at least the stake back and at most 100,000x; top tier first.
    expect(g.prizes.map((p) => p.match)).toEqual([6, 5, 4, 3]);
    for (const p of g.prizes) expect(p.pays).toBeGreaterThanOrEqual(PAY_UNITS);
    expect(g.prizes[0]!.pays).toBe(100_000 * PAY_UNITS);
  });

  it('draws distinct lotto numbers, each about as often as the others (fair stream, 6,000 draws of 5 of 35)', () => {
    const g = lottoGame(5, 35, 5);
    const seen = new Array(36).fill(0) as number[];
    for (let nonce = 1; nonce <= 6000; nonce++) {
      const d = drawLottery(g, { pick: [1, 2, 3, 4, 5] }, fairStream('seed', 'client', nonce));
      expect(new Set(d.drawn).size).toBe(5);
      for (const n of d.drawn) seen[n]!++;
    }
    // Expected 6000 x 5 / 35 = 857 each; 4 standard deviations is about 110.
    for (let n = 1; n <= 35; n++) expect(Math.abs(seen[n]! - 857), `number ${n}`).toBeLessThan(120);
  });

  it('pays dice (Fast 3) 97.2%: all 216 rolls, triples lose', () => {
    const g = lotteryFor('ELOTT', 'Fast 3');
    for (const side of DICE_SIDES) {
      let paid = 0;
      for (let r = 0; r < 216; r++) paid += drawLottery(g, { side }, scripted([Math.floor(r / 36), Math.floor(r / 6) % 6, r % 6])).pays;
      expect(paid / 216 / PAY_UNITS).toBeCloseTo(g.rtp, 12);
      expect(g.rtp).toBeCloseTo(105 / 108, 12);
    }
    expect(drawLottery(g, { side: 'big' }, scripted([5, 5, 5])).pays).toBe(0);
  });

  it('refuses a ticket that is not one of the game', () => {
    const cases: Array<[LotteryGame, object, boolean]> = [
      [digitsGame(3), { pick: [1, 2, 3] }, true], [digitsGame(3), { pick: [1, 2] }, false], [digitsGame(3), { pick: [1, 2, 10] }, false],
      [lottoGame(6, 45, 6), { pick: [1, 2, 3, 4, 5, 45] }, true], [lottoGame(6, 45, 6), { pick: [1, 1, 3, 4, 5, 6] }, false], [lottoGame(6, 45, 6), { pick: [0, 2, 3, 4, 5, 6] }, false],
      [lotteryFor('ELOTT', 'Fast 3'), { side: 'big' }, true], [lotteryFor('ELOTT', 'Fast 3'), { side: 'home' }, false],
      [lotteryFor('ELOTT', 'Racing 10'), { pick: [10] }, true], [lotteryFor('ELOTT', 'Racing 10'), { pick: [11] }, false], [lotteryFor('ELOTT', 'Racing 10'), {}, false],
    ];
    for (const [g, bet, ok] of cases) expect(lotteryPickError(g, bet) === null, JSON.stringify(bet)).toBe(ok);
  });
});

describe('vendor simulator: matches and fights', () => {
  const sports: Sport[] = ['football', 'basketball', 'boxing', 'esports', 'cockfight'];

  it('names the sport from the catalogue game', () => {
    expect(sportOf('SPORTS', 'PBA Live')).toBe('basketball');
    expect(sportOf('SPORTS', 'Boxing Night')).toBe('boxing');
    expect(sportOf('SPORTS', 'Virtual Football')).toBe('football');
    expect(sportOf('ESPORTS', 'MLBB Masters')).toBe('esports');
    expect(sportOf('COCKFIGHT', 'Derby Night')).toBe('cockfight');
  });

  it('offers odds that return less than the stake on every side of every fixture', () => {
    for (const sport of sports) {
      for (let n = 1; n <= 300; n++) {
        const f = fixtureFor(sport, 'V', 'G1', 'cs', n);
        expect(f.home).not.toBe(f.away);
        expect(f.chances.home + f.chances.draw + f.chances.away).toBeCloseTo(1, 12);
        for (const side of ['home', 'draw', 'away'] as Pick3[]) {
          if (f.odds[side] === null) continue;
          expect(f.odds[side]).toBeGreaterThan(PAY_UNITS);
          expect(fixtureReturn(f, side), `${sport} ${side}`).toBeLessThan(sport === 'cockfight' && side === 'draw' ? 0.5 : 0.95);
        }
      }
      // The same game, client seed and round give the same fixture (the page shows it before the bet).
      expect(fixtureFor(sport, 'V', 'G1', 'cs', 7)).toEqual(fixtureFor(sport, 'V', 'G1', 'cs', 7));
    }
    expect(fixtureFor('football', 'V', 'G1', 'cs', 1).odds.draw).not.toBeNull();
    expect(fixtureFor('basketball', 'V', 'G1', 'cs', 1).odds.draw).toBeNull();
  });

  it('decides results with the fixture chances (fair stream, 20,000 matches) and pays the odds', () => {
    const f = fixtureFor('football', 'V', 'G2', 'cs', 3);
    const seen = { home: 0, draw: 0, away: 0 };
    for (let nonce = 1; nonce <= 20_000; nonce++) {
      const m = playFixture(f, 'home', fairStream('s', 'c', nonce));
      seen[m.result]++;
      expect(m.pays).toBe(m.result === 'home' ? f.odds.home : 0);
    }
    for (const side of ['home', 'draw', 'away'] as Pick3[]) expect(Math.abs(seen[side] / 20_000 - f.chances[side]), side).toBeLessThan(0.015);
  });

  it('returns meron and wala bets on a draw, and pays the draw bet 8 to 1', () => {
    const f = fixtureFor('cockfight', 'DS88', 'CO001', 'cs', 1);
    let draws = 0;
    for (let nonce = 1; nonce <= 4000 && draws < 3; nonce++) {
      const rng = () => fairStream('s', 'c', nonce);
      const meron = playFixture(f, 'home', rng());
      if (meron.result !== 'draw') continue;
      draws++;
      expect(meron.pays).toBe(PAY_UNITS);
      expect(playFixture(f, 'draw', rng()).pays).toBe(9 * PAY_UNITS);
    }
    expect(draws).toBe(3);
  });
});
