import { queryOptions, useQuery } from '@tanstack/react-query';
import { catalogueCalls } from '@portal/contracts/api/games';
import { call } from '../../../lib/api';

export const favouriteIdsKey = (token: string | null) => ['favourites', 'ids', token] as const;

/** MCSFE_getFavoriteGames: the member's favourite node ids. */
export async function getFavouriteIds(signal?: AbortSignal): Promise<string[]> {
  const value = await call(catalogueCalls.favoriteIds, { query: {}, signal });
  return value.ids;
}

export function favouriteIdsQueryOptions(token: string | null) {
  return queryOptions({
    queryKey: favouriteIdsKey(token),
    queryFn: ({ signal }) => getFavouriteIds(signal),
    enabled: token !== null,
    staleTime: 5 * 60_000,
  });
}

export function useFavouriteIds(token: string | null) {
  return useQuery(favouriteIdsQueryOptions(token));
}
