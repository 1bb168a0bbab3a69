import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { agentReportCalls, type TConsolidatedFunds } from '@portal/contracts/api/agent-reports';
import { call } from './api';
import { useSessionToken } from './session';

/**
 * The consolidated contract and salary flags (GET /wps/member/info/funds/consolidated). Lives in lib
 * because two features read it: auth loads it at login (spec: on login for non-trial members when
 * AGENTPOLICY3 is on) and the agent centre gates its items on it.
 */
export const CONSOLIDATED_FUNDS_KEY = ['member', 'funds', 'consolidated'] as const;

export function getConsolidatedFunds(signal?: AbortSignal): Promise<TConsolidatedFunds> {
  return call(agentReportCalls.consolidatedFunds, { query: {}, signal });
}

/** Keyed by the token like member info: a new login never sees the previous member's flags. */
export function consolidatedFundsQueryOptions(token: string | null) {
  return queryOptions({
    queryKey: [...CONSOLIDATED_FUNDS_KEY, token] as const,
    queryFn: ({ signal }) => getConsolidatedFunds(signal),
    enabled: token !== null,
    staleTime: 60_000,
  });
}

/** Loads the flags right after login (the login form's success step); errors stay in the cache. */
export function prefetchConsolidatedFunds(qc: QueryClient, token: string | null): void {
  if (token === null) return;
  void qc.prefetchQuery(consolidatedFundsQueryOptions(token));
}

/** `enabled` false (trial, AGENTPOLICY3 off) never calls the server. */
export function useConsolidatedFunds(enabled: boolean) {
  const token = useSessionToken();
  const options = consolidatedFundsQueryOptions(token);
  return useQuery({ ...options, enabled: enabled && token !== null });
}
