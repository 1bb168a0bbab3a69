import { catalogueCalls } from '@portal/contracts/api/games';
import type { TCatalogueGame, TGame } from '@portal/contracts/api/games';
import { call } from '../../../lib/api';
import { MAINTENANCE_SUGGESTIONS } from '../machines/launch.machine';

/** Other playable games of the same type, for the maintenance dialog (GCSGAME_gameList). */
export async function getMaintenanceSuggestions(game: TGame): Promise<TCatalogueGame[]> {
  const value = await call(catalogueCalls.gameList, { query: { gameType: game.gameType, pageSize: 40 } });
  return value.games
    .filter((g) => !g.maintenance && g.nodeId !== game.nodeId && g.isGame !== 'VASSALAGE')
    .slice(0, MAINTENANCE_SUGGESTIONS);
}

/** The provider popup list: games of that vendor and type. */
export async function getProviderGames(game: TGame, signal?: AbortSignal): Promise<TCatalogueGame[]> {
  const value = await call(catalogueCalls.gameList, {
    query: { vassalage: game.vassalage, gameType: game.gameType, pageSize: 100 },
    signal,
  });
  return value.games.filter((g) => g.isGame !== 'VASSALAGE');
}
