import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { agentReportCalls } from '@portal/contracts/api/agent-reports';
import { call } from '../../../lib/api';
import type { DateRange } from '../../../lib/date-range';

export const AGENT_REPORTS_KEY = ['agent', 'reports'] as const;
/** Team figures move with every bet and deposit of the team: read again this often while shown. */
export const TEAM_OVERVIEW_REFRESH_MS = 30_000;

/** GET /wps/agent/team/overview: the team's figures over the range (merchant calendar). */
export function getTeamOverview(range: DateRange, signal?: AbortSignal) {
  return call(agentReportCalls.teamOverview, { query: { from: range.from, to: range.to }, signal });
}

export const teamOverviewQueryOptions = (range: DateRange) =>
  queryOptions({
    queryKey: [...AGENT_REPORTS_KEY, 'overview', range.from, range.to] as const,
    queryFn: ({ signal }) => getTeamOverview(range, signal),
    placeholderData: keepPreviousData,
    refetchInterval: TEAM_OVERVIEW_REFRESH_MS,
  });

export function useTeamOverview(range: DateRange) {
  return useQuery(teamOverviewQueryOptions(range));
}
