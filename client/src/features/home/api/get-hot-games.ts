import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LanguageCode } from '@portal/contracts/domain/constants';
import { withEarlyCall } from '../../../lib/early-calls';
import { useHomeLanguage } from '../use-home-language';
import { getHotGames, hotGamesCallKey } from './home-calls';

export function hotGamesQueryOptions(language: LanguageCode) {
  return queryOptions({
    queryKey: ['home', 'hotGames', language] as const,
    // The call main.tsx started early on the home page: its answer as initialData, or its promise as the first fetch.
    ...withEarlyCall(hotGamesCallKey(language), (signal) => getHotGames(language, signal)),
    staleTime: 5 * 60_000,
  });
}

export function useHotGames() {
  return useQuery(hotGamesQueryOptions(useHomeLanguage()));
}
