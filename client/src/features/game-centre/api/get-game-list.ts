import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { catalogueCalls } from '@portal/contracts/api/games';
import type { TGameListValue } from '@portal/contracts/api/games';
import type { GameType, RngClassify } from '@portal/contracts/domain/constants';
import { call } from '../../../lib/api';

export const GAME_PAGE_SIZE = 20;

export type GameListFilter = {
  gameType?: GameType;
  vassalage?: string;
  gameClassify?: RngClassify;
  gameName?: string;
};

/** GCSGAME_gameList (guests too): one page of games matching the filter. */
export function getGameList(filter: GameListFilter, pageNo: number, signal?: AbortSignal): Promise<TGameListValue> {
  return call(catalogueCalls.gameList, { query: { ...filter, pageNo, pageSize: GAME_PAGE_SIZE }, signal });
}

export function gameListQueryOptions(filter: GameListFilter, token: string | null) {
  return infiniteQueryOptions({
    queryKey: ['gameCentre', 'gameList', filter, token] as const,
    queryFn: ({ pageParam, signal }) => getGameList(filter, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.pageNo < last.totalPages ? last.pageNo + 1 : undefined),
    staleTime: 60_000,
  });
}

/** The list is public; the token is only part of the cache key (a sign-in refetches). */
export function useGameList(filter: GameListFilter, token: string | null, enabled = true) {
  const options = gameListQueryOptions(filter, token);
  return useInfiniteQuery({ ...options, enabled });
}
