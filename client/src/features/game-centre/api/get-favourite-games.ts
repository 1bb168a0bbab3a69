import { useInfiniteQuery } from '@tanstack/react-query';
import { catalogueCalls } from '@portal/contracts/api/games';
import type { TFavoriteListValue } from '@portal/contracts/api/games';
import { call } from '../../../lib/api';

/** MCSFE_getFavoriteGamesList for the favourites filter (the favourites feature owns the ids). */
export function getFavouriteGames(pageNum: number, signal?: AbortSignal): Promise<TFavoriteListValue> {
  return call(catalogueCalls.favoriteList, { query: { pageNum, pageSize: 100 }, signal });
}

export function useFavouriteGames(token: string | null, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: ['favourites', 'list', 'centre', token] as const,
    queryFn: ({ pageParam, signal }) => getFavouriteGames(pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.pageNum < last.totalPages ? last.pageNum + 1 : undefined),
    enabled: token !== null && enabled,
  });
}
