import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { agentReportCalls } from '@portal/contracts/api/agent-reports';
import { call } from '../../../lib/api';
import { AGENT_REPORTS_KEY } from './get-team-overview';

export const DOWNLINES_KEY = [...AGENT_REPORTS_KEY, 'downlines'] as const;
export type DownlinesFilter = { parentId?: number; search?: string; pageNo: number; pageSize: number };

/** GET /wps/agent/downlines: direct downlines of parentId (the caller by default) or a search in the whole team. */
export function getDownlines(f: DownlinesFilter, signal?: AbortSignal) {
  return call(agentReportCalls.downlines, { query: f, signal });
}

export const downlinesQueryOptions = (f: DownlinesFilter) =>
  queryOptions({ queryKey: [...DOWNLINES_KEY, f] as const, queryFn: ({ signal }) => getDownlines(f, signal), placeholderData: keepPreviousData });

export function useDownlines(f: DownlinesFilter) {
  return useQuery(downlinesQueryOptions(f));
}
