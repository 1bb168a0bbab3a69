import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { opsCalls, type ZOpsWithdrawal } from '@portal/contracts/api/ops';
import type { WithdrawalStatus } from '@portal/contracts/api/cashier';
import { fetchNewestFirst } from '../lib/newest-first';
import { opsCall } from '../lib/ops-api';
import { DONE_STATUSES } from '../lib/withdrawal-actions';
import { OPS_KEY, OPS_POLL_MS } from './ops-keys';

export type TOpsWithdrawal = z.infer<typeof ZOpsWithdrawal>;
export type WithdrawalFilter = { status: WithdrawalStatus; pageNo: number; pageSize: number };

/** Working statuses are queues (oldest first); final ones are history (newest first). */
export const isWithdrawalHistory = (status: WithdrawalStatus) => DONE_STATUSES.includes(status);

/** GET /ops/api/withdrawals by status, polled. */
export const withdrawalsQuery = (f: WithdrawalFilter) =>
  queryOptions({
    queryKey: [...OPS_KEY, 'withdrawals', f],
    queryFn: ({ signal }) => {
      const page = (pageNo: number, pageSize: number) => opsCall(opsCalls.withdrawals, { query: { status: f.status, pageNo, pageSize }, signal });
      return isWithdrawalHistory(f.status) ? fetchNewestFirst(page, f.pageNo, f.pageSize) : page(f.pageNo, f.pageSize);
    },
    refetchInterval: OPS_POLL_MS,
    staleTime: 0,
    placeholderData: keepPreviousData,
  });

export function useOpsWithdrawals(f: WithdrawalFilter) {
  return useQuery(withdrawalsQuery(f));
}
