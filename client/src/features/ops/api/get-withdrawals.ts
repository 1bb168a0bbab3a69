import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { opsCalls, type ZOpsWithdrawal } from '@portal/contracts/api/ops';
import type { WithdrawalStatus } from '@portal/contracts/api/cashier';
import { opsCall } from '../lib/ops-api';
import { OPS_KEY, OPS_POLL_MS } from './ops-keys';

export type TOpsWithdrawal = z.infer<typeof ZOpsWithdrawal>;
export type WithdrawalFilter = { status: WithdrawalStatus; pageNo: number; pageSize: number };

/** GET /ops/api/withdrawals by status, polled. */
export const withdrawalsQuery = (f: WithdrawalFilter) =>
  queryOptions({
    queryKey: [...OPS_KEY, 'withdrawals', f],
    queryFn: ({ signal }) => opsCall(opsCalls.withdrawals, { query: f, signal }),
    refetchInterval: OPS_POLL_MS,
    staleTime: 0,
    placeholderData: keepPreviousData,
  });

export function useOpsWithdrawals(f: WithdrawalFilter) {
  return useQuery(withdrawalsQuery(f));
}
