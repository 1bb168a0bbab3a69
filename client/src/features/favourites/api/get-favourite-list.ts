import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { catalogueCalls } from '@portal/contracts/api/games';
import type { TFavoriteListValue } from '@portal/contracts/api/games';
import { call } from '../../../lib/api';

/** MCSFE_getFavoriteGamesList: favourite games, newest first, paged. */
export function getFavouriteList(pageNum: number, signal?: AbortSignal): Promise<TFavoriteListValue> {
  return call(catalogueCalls.favoriteList, { query: { pageNum, pageSize: 20 }, signal });
}

export function favouriteListQueryOptions(token: string | null) {
  return infiniteQueryOptions({
    queryKey: ['favourites', 'list', token] as const,
    queryFn: ({ pageParam, signal }) => getFavouriteList(pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.pageNum < last.totalPages ? last.pageNum + 1 : undefined),
    enabled: token !== null,
  });
}

export function useFavouriteList(token: string | null, enabled: boolean) {
  return useInfiniteQuery({ ...favouriteListQueryOptions(token), enabled: token !== null && enabled });
}
