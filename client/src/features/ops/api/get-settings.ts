import { queryOptions, useQuery } from '@tanstack/react-query';
import { opsCalls } from '@portal/contracts/api/ops';
import { opsCall } from '../lib/ops-api';
import { OPS_KEY, OPS_POLL_MS } from './ops-keys';

export const settingsKey = [...OPS_KEY, 'settings'] as const;

/** GET /ops/api/settings: cashier limits of the merchant. */
export const settingsQuery = () =>
  queryOptions({
    queryKey: settingsKey,
    queryFn: ({ signal }) => opsCall(opsCalls.settings, { query: {}, signal }),
    refetchInterval: OPS_POLL_MS * 6,
  });

export function useOpsSettings() {
  return useQuery(settingsQuery());
}
