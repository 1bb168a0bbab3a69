import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LanguageCode } from '@portal/contracts/domain/constants';
import { earlyAnswer, earlyAnswerAt, takeEarlyCall } from '../../../lib/early-calls';
import { useHomeLanguage } from '../use-home-language';
import { announcementsCallKey, getAnnouncements } from './home-calls';

export { getAnnouncements };

export function announcementsQueryOptions(language: LanguageCode) {
  return queryOptions({
    queryKey: ['announcements', language] as const,
    // The first fetch takes the call main.tsx started early on the home page, if any.
    queryFn: ({ signal }) => takeEarlyCall<Awaited<ReturnType<typeof getAnnouncements>>>(announcementsCallKey(language)) ?? getAnnouncements(language, signal),
    // Answered before the first render: the query starts with it (and its time), no fetch.
    initialData: () => earlyAnswer<Awaited<ReturnType<typeof getAnnouncements>>>(announcementsCallKey(language)),
    initialDataUpdatedAt: () => earlyAnswerAt(announcementsCallKey(language)),
    staleTime: 5 * 60_000,
  });
}

export function useAnnouncements() {
  return useQuery(announcementsQueryOptions(useHomeLanguage()));
}
