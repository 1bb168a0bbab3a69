import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { opsCalls, type ZOpsDeposit } from '@portal/contracts/api/ops';
import type { DepositStatus } from '@portal/contracts/api/cashier';
import { fetchNewestFirst } from '../lib/newest-first';
import { opsCall } from '../lib/ops-api';
import { OPS_KEY, OPS_POLL_MS } from './ops-keys';

export type TOpsDeposit = z.infer<typeof ZOpsDeposit>;
export type DepositFilter = { status: DepositStatus; provider: string; pageNo: number; pageSize: number };

export const depositsKey = [...OPS_KEY, 'deposits'] as const;

/** Pending deposits are a queue (oldest first); decided ones are history (newest first). */
export const isDepositHistory = (status: DepositStatus) => status !== 'pending';

/** GET /ops/api/deposits by status (and provider), polled. */
export const depositsQuery = (f: DepositFilter) =>
  queryOptions({
    queryKey: [...depositsKey, f],
    queryFn: ({ signal }) => {
      const page = (pageNo: number, pageSize: number) =>
        opsCall(opsCalls.deposits, { query: { status: f.status, provider: f.provider || undefined, pageNo, pageSize }, signal });
      return isDepositHistory(f.status) ? fetchNewestFirst(page, f.pageNo, f.pageSize) : page(f.pageNo, f.pageSize);
    },
    refetchInterval: OPS_POLL_MS,
    staleTime: 0,
    placeholderData: keepPreviousData,
  });

export function useOpsDeposits(f: DepositFilter) {
  return useQuery(depositsQuery(f));
}
