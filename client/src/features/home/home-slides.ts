import type { TGame } from '@portal/contracts/api/games';
import { LIMITS, type GameType } from '@portal/contracts/domain/constants';

export type HomeSlide = { gameType: GameType; games: TGame[] };

/** The spec's home page names a live slide and an RNG slide; they lead, the rest follow in server order. */
const LEADING: readonly GameType[] = ['LIVE', 'RNG'];

export function orderHomeSlides(menus: readonly HomeSlide[], pageSize: number = LIMITS.HOME_SLIDER_PAGE_SIZE): HomeSlide[] {
  const withGames = menus.filter((m) => m.games.length > 0);
  const rank = (t: GameType) => {
    const i = LEADING.indexOf(t);
    return i < 0 ? LEADING.length : i;
  };
  const seen = new Set<GameType>();
  return withGames
    .map((m, i) => ({ m, i }))
    .sort((a, b) => rank(a.m.gameType) - rank(b.m.gameType) || a.i - b.i)
    .map(({ m }) => m)
    .filter((m) => (seen.has(m.gameType) ? false : (seen.add(m.gameType), true)))
    .map((m) => ({ gameType: m.gameType, games: m.games.slice(0, pageSize) }));
}
