import { queryOptions, useQuery } from '@tanstack/react-query';
import { walletCalls } from '@portal/contracts/api/wallet';
import { call } from '../../../lib/api';
import { QUERY_KEYS } from '../../../lib/query-keys';
import { useSessionToken } from '../../../lib/session';

/** GET /wps/v2/wallets/balance, keyed by the token; `balance.changed` writes into this cache (realtime/cache-mapping). */
export function balanceQueryOptions(token: string | null, enabled = true) {
  return queryOptions({
    queryKey: [...QUERY_KEYS.balance, token] as const,
    queryFn: ({ signal }) => call(walletCalls.balance, { query: {}, signal }),
    enabled: enabled && token !== null,
    staleTime: Infinity,
  });
}

export function useBalance(enabled = true) {
  return useQuery(balanceQueryOptions(useSessionToken(), enabled));
}
