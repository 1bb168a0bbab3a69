import { queryOptions, useQuery } from '@tanstack/react-query';
import { walletCalls } from '@portal/contracts/api/wallet';
import { call } from '../../../lib/api';
import { QUERY_KEYS } from '../../../lib/query-keys';
import { useSessionToken } from '../../../lib/session';

/** GET relay CSP_unreadCount once per login; `message.received` keeps the cache current after that. */
export function unreadCountQueryOptions(token: string | null, enabled: boolean) {
  return queryOptions({
    queryKey: [...QUERY_KEYS.unreadCount, token] as const,
    queryFn: ({ signal }) => call(walletCalls.unreadCount, { query: {}, signal }),
    enabled: enabled && token !== null,
    staleTime: Infinity,
  });
}

/** Trial users skip unread fetching (spec section 6): pass `enabled` false for them. */
export function useUnreadCount(enabled: boolean) {
  return useQuery(unreadCountQueryOptions(useSessionToken(), enabled));
}
