import { queryOptions, useQuery } from '@tanstack/react-query';
import { agentReportCalls } from '@portal/contracts/api/agent-reports';
import { call } from '../../../lib/api';
import { AGENT_REPORTS_KEY } from './get-team-overview';

/** GET /wps/agent/downlines/:id/contracts: a direct downline's live contracts and open offers. */
export function getDownlineContracts(id: number, signal?: AbortSignal) {
  return call(agentReportCalls.downlineContracts, { params: { id }, query: {}, signal });
}
export const downlineContractsQueryOptions = (id: number) =>
  queryOptions({ queryKey: [...AGENT_REPORTS_KEY, 'downlineContracts', id] as const, queryFn: ({ signal }) => getDownlineContracts(id, signal) });
export function useDownlineContracts(id: number) {
  return useQuery(downlineContractsQueryOptions(id));
}
