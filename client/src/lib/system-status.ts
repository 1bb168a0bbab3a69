import { queryOptions, useQuery } from '@tanstack/react-query';
import { systemCalls } from '@portal/contracts/api/system';
import type { TSystemStatus } from '@portal/contracts/api/system';
import { call } from './api';
import { QUERY_KEYS } from './query-keys';

/** GET /wps/system/status: 0 normal, 1 maintenance, 2 blocked. Shared: the app gate and realtime both use it. */
export function getSystemStatus(signal?: AbortSignal): Promise<TSystemStatus> {
  return call(systemCalls.status, { query: {}, signal });
}

export function systemStatusQueryOptions() {
  return queryOptions({
    queryKey: QUERY_KEYS.systemStatus,
    queryFn: ({ signal }) => getSystemStatus(signal),
    staleTime: 5 * 60_000,
  });
}

export function useSystemStatus() {
  return useQuery(systemStatusQueryOptions());
}
