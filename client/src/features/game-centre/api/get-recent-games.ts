import { queryOptions, useQuery } from '@tanstack/react-query';
import { catalogueCalls } from '@portal/contracts/api/games';
import type { TRecentGamesValue } from '@portal/contracts/api/games';
import { call } from '../../../lib/api';

/** GCS_recentGame: games the member launched lately, most recent first. */
export function getRecentGames(signal?: AbortSignal): Promise<TRecentGamesValue> {
  return call(catalogueCalls.recentGames, { query: { limit: 12 }, signal });
}

export function recentGamesQueryOptions(token: string | null) {
  return queryOptions({
    queryKey: ['gameCentre', 'recent', token] as const,
    queryFn: ({ signal }) => getRecentGames(signal),
    enabled: token !== null,
    staleTime: 30_000,
  });
}

export function useRecentGames(token: string | null) {
  return useQuery(recentGamesQueryOptions(token));
}
