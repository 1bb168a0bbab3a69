import { queryOptions, useQuery } from '@tanstack/react-query';
import { authCalls } from '@portal/contracts/api/auth';
import { call } from '../../../lib/api';
import { useSessionToken } from '../../../lib/session';

/** GET /wps/member/info, keyed by the token (the header reads the same key, so the cache is shared). */
export function memberInfoQueryOptions(token: string | null) {
  return queryOptions({
    queryKey: ['member', 'info', token] as const,
    queryFn: ({ signal }) => call(authCalls.memberInfo, { query: {}, signal }),
    enabled: token !== null,
    staleTime: 5 * 60_000,
  });
}

export function useMemberInfo() {
  return useQuery(memberInfoQueryOptions(useSessionToken()));
}
