import { queryOptions, useQuery } from '@tanstack/react-query';
import { QUERY_KEYS } from './query-keys';
import { getSystemStatus } from './system-calls';

/** GET /wps/system/status: 0 normal, 1 maintenance, 2 blocked. Shared: the app gate and realtime both use it. */
export { getSystemStatus };

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
