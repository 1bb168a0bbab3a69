import { queryOptions, useQuery } from '@tanstack/react-query';
import { contentCalls, type TAnnouncements } from '@portal/contracts/api/content';
import type { LanguageCode } from '@portal/contracts/domain/constants';
import { call } from '../../../lib/api';
import { QUERY_KEYS } from '../../../lib/query-keys';
import type { PopupAudience } from '../public-modal';

/** The popups and promotions (types PU, PR): the server picks the popups by who asks (member or visitor). */
export function getPopups(language: LanguageCode, signal?: AbortSignal): Promise<TAnnouncements> {
  return call(contentCalls.announcements, { query: { types: 'PU,PR', platform: 'W', language }, signal });
}

/** Keyed by audience too: after a login the member's popups are fetched, not the visitor's kept. */
export function popupsQueryOptions(language: LanguageCode, audience: PopupAudience, enabled: boolean) {
  return queryOptions({
    queryKey: [...QUERY_KEYS.announcements, 'popup', language, audience] as const,
    queryFn: ({ signal }) => getPopups(language, signal),
    staleTime: 5 * 60_000,
    enabled,
  });
}

export function usePopups(language: LanguageCode, audience: PopupAudience, enabled: boolean) {
  return useQuery(popupsQueryOptions(language, audience, enabled));
}
