import { gameCalls, type TGame } from '@portal/contracts/api/games';
import type { GameType } from '@portal/contracts/domain/constants';
import { call } from '../../../lib/api';

/** The first game of a type from the public game menus (spec: the cockfight entry starts its game directly). */
export async function getFirstGame(gameType: GameType): Promise<TGame | null> {
  const v = await call(gameCalls.gameMenus, { query: { pageSize: 1 } });
  return v.menus.find((m) => m.gameType === gameType)?.games[0] ?? null;
}
