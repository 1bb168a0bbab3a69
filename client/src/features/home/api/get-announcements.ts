import { queryOptions, useQuery } from '@tanstack/react-query';
import { contentCalls, type TAnnouncements } from '@portal/contracts/api/content';
import type { LanguageCode } from '@portal/contracts/domain/constants';
import { call } from '../../../lib/api';
import { useHomeLanguage } from '../use-home-language';

/** GET /wps/relay/MCSFE_getListAnnouncements: banners, player notices, popups, promotions. */
export function getAnnouncements(language: LanguageCode, signal?: AbortSignal): Promise<TAnnouncements> {
  return call(contentCalls.announcements, { query: { types: 'B,PL,PU,PR,H', platform: 'W', language }, signal });
}

export function announcementsQueryOptions(language: LanguageCode) {
  return queryOptions({
    queryKey: ['announcements', language] as const,
    queryFn: ({ signal }) => getAnnouncements(language, signal),
    staleTime: 5 * 60_000,
  });
}

export function useAnnouncements() {
  return useQuery(announcementsQueryOptions(useHomeLanguage()));
}
