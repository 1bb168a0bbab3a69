import { queryOptions, useQuery } from '@tanstack/react-query';
import { authCalls } from '@portal/contracts/api/auth';
import { call } from '../../../lib/api';
import { useSessionToken } from '../../../lib/session';
import type { TMemberInfo } from '../lib/auth-types';

export const MEMBER_INFO_KEY = ['member', 'info'] as const;

/** GET /wps/member/info: account, nickname, type, agent and trial status. */
export function getMemberInfo(signal?: AbortSignal): Promise<TMemberInfo> {
  return call(authCalls.memberInfo, { query: {}, signal });
}

/** Keyed by the token: a new login never sees the previous member. */
export function memberInfoQueryOptions(token: string | null) {
  return queryOptions({
    queryKey: [...MEMBER_INFO_KEY, token] as const,
    queryFn: ({ signal }) => getMemberInfo(signal),
    enabled: token !== null,
    staleTime: 5 * 60_000,
  });
}

export function useMemberInfo() {
  return useQuery(memberInfoQueryOptions(useSessionToken()));
}
