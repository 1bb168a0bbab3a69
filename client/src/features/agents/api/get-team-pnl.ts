import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { agentReportCalls } from '@portal/contracts/api/agent-reports';
import { call } from '../../../lib/api';
import { AGENT_REPORTS_KEY } from './get-team-overview';

export type TeamPnlFilter = { from: string; to: string; parentId?: number; pageNo: number; pageSize: number };

/** GET /wps/agent/team/pnl: profit and loss per direct downline of parentId (each line its whole team). */
export function getTeamPnl(f: TeamPnlFilter, signal?: AbortSignal) {
  return call(agentReportCalls.teamPnl, { query: f, signal });
}
export const teamPnlQueryOptions = (f: TeamPnlFilter) =>
  queryOptions({ queryKey: [...AGENT_REPORTS_KEY, 'pnl', f] as const, queryFn: ({ signal }) => getTeamPnl(f, signal), placeholderData: keepPreviousData });
export function useTeamPnl(f: TeamPnlFilter) {
  return useQuery(teamPnlQueryOptions(f));
}
