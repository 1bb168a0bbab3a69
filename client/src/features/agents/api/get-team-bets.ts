import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { agentReportCalls } from '@portal/contracts/api/agent-reports';
import { call } from '../../../lib/api';
import { AGENT_REPORTS_KEY } from './get-team-overview';

export type TeamBetsFilter = { from: string; to: string; account?: string; gameType?: string; pageNo: number; pageSize: number };

/** GET /wps/agent/team/bets: bet records of the caller's team. */
export function getTeamBets(f: TeamBetsFilter, signal?: AbortSignal) {
  return call(agentReportCalls.teamBets, { query: f, signal });
}
export const teamBetsQueryOptions = (f: TeamBetsFilter) =>
  queryOptions({ queryKey: [...AGENT_REPORTS_KEY, 'bets', f] as const, queryFn: ({ signal }) => getTeamBets(f, signal), placeholderData: keepPreviousData });
export function useTeamBets(f: TeamBetsFilter) {
  return useQuery(teamBetsQueryOptions(f));
}
