import { queryOptions, useQuery } from '@tanstack/react-query';
import { gameCalls } from '@portal/contracts/api/games';
import { LIMITS, type LanguageCode } from '@portal/contracts/domain/constants';
import { call } from '../../../lib/api';
import { orderHomeSlides, type HomeSlide } from '../home-slides';
import { useHomeLanguage } from '../use-home-language';

/** GET /lgw/games/game_menus: games per game type, ordered for the home sliders. */
export async function getHomeSlides(language: LanguageCode, signal?: AbortSignal): Promise<HomeSlide[]> {
  const value = await call(gameCalls.gameMenus, { query: { language, pageSize: LIMITS.HOME_SLIDER_PAGE_SIZE }, signal });
  return orderHomeSlides(value.menus);
}

export function homeSlidesQueryOptions(language: LanguageCode) {
  return queryOptions({
    queryKey: ['home', 'slides', language] as const,
    queryFn: ({ signal }) => getHomeSlides(language, signal),
    staleTime: 5 * 60_000,
  });
}

export function useHomeSlides() {
  return useQuery(homeSlidesQueryOptions(useHomeLanguage()));
}
