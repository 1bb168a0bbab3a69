import { queryOptions, useQuery } from '@tanstack/react-query';
import { cashierCalls } from '@portal/contracts/api/cashier';
import { call } from '../../../lib/api';

/** GET /wps/v2/deposit/channels: the merchant's open payment channels with their limits. */
export function getChannels(signal?: AbortSignal) {
  return call(cashierCalls.channels, { query: {}, signal });
}

export const channelsQueryOptions = () => queryOptions({ queryKey: ['deposit', 'channels'] as const, queryFn: ({ signal }) => getChannels(signal), staleTime: 60_000 });

export function useChannels() {
  return useQuery(channelsQueryOptions());
}
