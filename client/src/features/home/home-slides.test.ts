import { describe, expect, it } from 'vitest';
import type { TGame } from '@portal/contracts/api/games';
import type { GameType } from '@portal/contracts/domain/constants';
import { orderHomeSlides } from './home-slides';

const game = (gameType: GameType, n: number): TGame => ({
  nodeId: `${gameType}${n}`, vassalage: 'JL', gameCode: `${n}`, isGame: 'GAME', gameType, gameClassify: null,
  gameName: `Game ${n}`, iconUrl: null, maintenance: false,
});
const menu = (gameType: GameType, count: number) => ({ gameType, games: Array.from({ length: count }, (_, i) => game(gameType, i)) });

describe('orderHomeSlides', () => {
  it('puts LIVE then RNG first and keeps the others in server order', () => {
    const slides = orderHomeSlides([menu('FISH', 2), menu('RNG', 3), menu('PVP', 1), menu('LIVE', 4)]);
    expect(slides.map((s) => s.gameType)).toEqual(['LIVE', 'RNG', 'FISH', 'PVP']);
  });
  it('skips empty and repeated game types and caps each slide at 20 games', () => {
    const slides = orderHomeSlides([menu('RNG', 30), menu('LIVE', 0), menu('RNG', 2)]);
    expect(slides.map((s) => s.gameType)).toEqual(['RNG']);
    expect(slides[0]?.games).toHaveLength(20);
  });
});
