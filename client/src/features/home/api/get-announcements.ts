import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LanguageCode } from '@portal/contracts/domain/constants';
import { withEarlyCall } from '../../../lib/early-calls';
import { useHomeLanguage } from '../use-home-language';
import { announcementsCallKey, getAnnouncements } from './home-calls';

export function announcementsQueryOptions(language: LanguageCode) {
  return queryOptions({
    queryKey: ['announcements', language] as const,
    // The call main.tsx started early on the home page: its answer as initialData, or its promise as the first fetch.
    ...withEarlyCall(announcementsCallKey(language), (signal) => getAnnouncements(language, signal)),
    staleTime: 5 * 60_000,
  });
}

export function useAnnouncements() {
  return useQuery(announcementsQueryOptions(useHomeLanguage()));
}
