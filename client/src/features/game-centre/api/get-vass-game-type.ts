import { queryOptions, useQuery } from '@tanstack/react-query';
import { catalogueCalls } from '@portal/contracts/api/games';
import type { TVassGameTypeValue } from '@portal/contracts/api/games';
import type { GameType } from '@portal/contracts/domain/constants';
import { call } from '../../../lib/api';
import { getMerchantCode } from '../../../lib/merchant';

/** GCSGAME_getVassGameType: vendors of a game type with game counts and their sub-categories. */
export function getVassGameType(gameType: GameType, signal?: AbortSignal): Promise<TVassGameTypeValue> {
  const merchantCode = getMerchantCode() ?? undefined;
  return call(catalogueCalls.vassGameType, { query: { gameType, merchantCode }, signal });
}

export function vassGameTypeQueryOptions(gameType: GameType) {
  return queryOptions({
    queryKey: ['gameCentre', 'vassGameType', gameType] as const,
    queryFn: ({ signal }) => getVassGameType(gameType, signal),
    staleTime: 5 * 60_000,
  });
}

export function useVassGameType(gameType: GameType) {
  return useQuery(vassGameTypeQueryOptions(gameType));
}
