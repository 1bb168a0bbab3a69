import { catalogueCalls } from '@portal/contracts/api/games';
import type { TFavoriteChangeValue, TGame } from '@portal/contracts/api/games';
import { call } from '../../../lib/api';

/** MCSFE_addFavoriteGameV2 / MCSFE_removeFavoriteGameV2 (payload: nodeId, vendor, gameType). */
export function setFavourite(game: TGame, isFavourite: boolean): Promise<TFavoriteChangeValue> {
  if (isFavourite) {
    return call(catalogueCalls.addFavorite, { body: { nodeId: game.nodeId, vendor: game.vassalage, gameType: game.gameType } });
  }
  return call(catalogueCalls.removeFavorite, { query: { nodeId: game.nodeId } });
}
