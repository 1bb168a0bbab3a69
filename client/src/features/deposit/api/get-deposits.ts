import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { cashierCalls } from '@portal/contracts/api/cashier';
import { call } from '../../../lib/api';

export const DEPOSITS_KEY = ['deposit', 'orders'] as const;

/** GET /wps/v2/deposit/orders: the member's recent deposits, newest first. */
export function getDeposits(pageNo: number, pageSize: number, signal?: AbortSignal) {
  return call(cashierCalls.deposits, { query: { pageNo, pageSize }, signal });
}

export const depositsQueryOptions = (pageNo: number, pageSize = 10) =>
  queryOptions({ queryKey: [...DEPOSITS_KEY, pageNo, pageSize] as const, queryFn: ({ signal }) => getDeposits(pageNo, pageSize, signal), placeholderData: keepPreviousData });

export function useDeposits(pageNo: number, pageSize = 10) {
  return useQuery(depositsQueryOptions(pageNo, pageSize));
}
