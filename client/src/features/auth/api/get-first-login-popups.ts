import { queryOptions, useQuery } from '@tanstack/react-query';
import { contentCalls, type TAnnouncement } from '@portal/contracts/api/content';
import type { LanguageCode } from '@portal/contracts/domain/constants';
import { call } from '../../../lib/api';

/** The announcements' popup list, execution F only: shown once, on a first login. */
export async function getFirstLoginPopups(language: LanguageCode, signal?: AbortSignal): Promise<TAnnouncement[]> {
  const value = await call(contentCalls.announcements, { query: { types: 'PU', platform: 'W', language }, signal });
  return value.popup.filter((p) => p.execution === 'F');
}

export function firstLoginPopupsQueryOptions(language: LanguageCode, enabled: boolean) {
  return queryOptions({
    queryKey: ['announcements', 'firstLogin', language] as const,
    queryFn: ({ signal }) => getFirstLoginPopups(language, signal),
    enabled,
    staleTime: Infinity,
  });
}

export function useFirstLoginPopups(language: LanguageCode, enabled: boolean) {
  return useQuery(firstLoginPopupsQueryOptions(language, enabled));
}
