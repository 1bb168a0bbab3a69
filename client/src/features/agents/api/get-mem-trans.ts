import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { agentReportCalls } from '@portal/contracts/api/agent-reports';
import { call } from '../../../lib/api';
import { AGENT_REPORTS_KEY } from './get-team-overview';

export type MemTransFilter = { from: string; to: string; account?: string; type?: string; pageNo: number; pageSize: number };

/** GET relay ODSFE2_MemTransDet: ledger entries of the caller's team (account details). */
export function getMemTrans(f: MemTransFilter, signal?: AbortSignal) {
  return call(agentReportCalls.memTransDet, { query: f, signal });
}
export const memTransQueryOptions = (f: MemTransFilter) =>
  queryOptions({ queryKey: [...AGENT_REPORTS_KEY, 'memTrans', f] as const, queryFn: ({ signal }) => getMemTrans(f, signal), placeholderData: keepPreviousData });
export function useMemTrans(f: MemTransFilter) {
  return useQuery(memTransQueryOptions(f));
}
