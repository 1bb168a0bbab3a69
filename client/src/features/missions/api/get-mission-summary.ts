import { queryOptions, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { missionCalls } from '@portal/contracts/api/missions';
import { call } from '../../../lib/api';
import { useSessionToken } from '../../../lib/session';

/** Query keys: everything of missions under ['missions', token] so a sign-in or sign-out refetches. */
export const missionsKey = (token: string | null) => ['missions', token] as const;
export const missionLang = (l: string): 'EN' | 'TY' => (l === 'TY' ? 'TY' : 'EN');

/** MCSFE_getMissionSummaryDetails: the missions of today and this week with the caller's progress, and the badge. */
export function missionSummaryQuery(token: string | null, language: 'EN' | 'TY') {
  return queryOptions({
    queryKey: [...missionsKey(token), 'summary', language] as const,
    queryFn: ({ signal }) => call(missionCalls.summary, { query: { language }, signal }),
    enabled: token !== null,
  });
}
export function useMissionSummary(enabled = true) {
  const { i18n } = useTranslation();
  const token = useSessionToken();
  return useQuery(missionSummaryQuery(enabled ? token : null, missionLang(i18n.language)));
}
