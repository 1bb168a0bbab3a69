import { queryOptions, useQuery } from '@tanstack/react-query';
import { gameCalls, type TGame } from '@portal/contracts/api/games';
import { LIMITS, type LanguageCode } from '@portal/contracts/domain/constants';
import { call } from '../../../lib/api';
import { useHomeLanguage } from '../use-home-language';

/** The spec's hot-games request: desktop platforms (isPlatform 2). */
const HOT_GAMES_PLATFORM = { isPlatform: 2, platform: 'flash,html5-desktop' } as const;

/** GET /wps/relay/GCSGAME_hotGamesV2; the home page shows the first six. */
export async function getHotGames(language: LanguageCode, signal?: AbortSignal): Promise<TGame[]> {
  const value = await call(gameCalls.hotGames, { query: { ...HOT_GAMES_PLATFORM, language }, signal });
  return value.list.slice(0, LIMITS.HOT_GAMES_HOME);
}

export function hotGamesQueryOptions(language: LanguageCode) {
  return queryOptions({
    queryKey: ['home', 'hotGames', language] as const,
    queryFn: ({ signal }) => getHotGames(language, signal),
    staleTime: 5 * 60_000,
  });
}

export function useHotGames() {
  return useQuery(hotGamesQueryOptions(useHomeLanguage()));
}
