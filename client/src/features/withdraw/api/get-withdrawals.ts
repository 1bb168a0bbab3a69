import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { cashierCalls } from '@portal/contracts/api/cashier';
import { call } from '../../../lib/api';

export const WITHDRAWALS_KEY = ['withdraw', 'list'] as const;

/** GET /wps/v2/withdrawals: newest first. */
export function getWithdrawals(pageNo: number, pageSize: number, signal?: AbortSignal) {
  return call(cashierCalls.withdrawals, { query: { pageNo, pageSize }, signal });
}

export const withdrawalsQueryOptions = (pageNo: number, pageSize = 10) =>
  queryOptions({ queryKey: [...WITHDRAWALS_KEY, pageNo, pageSize] as const, queryFn: ({ signal }) => getWithdrawals(pageNo, pageSize, signal), placeholderData: keepPreviousData });

export function useWithdrawals(pageNo: number, pageSize = 10) {
  return useQuery(withdrawalsQueryOptions(pageNo, pageSize));
}
