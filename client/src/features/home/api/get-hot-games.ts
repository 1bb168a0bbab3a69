import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TGame } from '@portal/contracts/api/games';
import type { LanguageCode } from '@portal/contracts/domain/constants';
import { earlyAnswer, earlyAnswerAt, takeEarlyCall } from '../../../lib/early-calls';
import { useHomeLanguage } from '../use-home-language';
import { getHotGames, hotGamesCallKey } from './home-calls';

export { getHotGames };

export function hotGamesQueryOptions(language: LanguageCode) {
  return queryOptions({
    queryKey: ['home', 'hotGames', language] as const,
    // The first fetch takes the call main.tsx started early on the home page, if any.
    queryFn: ({ signal }) => takeEarlyCall<TGame[]>(hotGamesCallKey(language)) ?? getHotGames(language, signal),
    // Answered before the first render: the query starts with it (and its time), no fetch.
    initialData: () => earlyAnswer<TGame[]>(hotGamesCallKey(language)),
    initialDataUpdatedAt: () => earlyAnswerAt(hotGamesCallKey(language)),
    staleTime: 5 * 60_000,
  });
}

export function useHotGames() {
  return useQuery(hotGamesQueryOptions(useHomeLanguage()));
}
