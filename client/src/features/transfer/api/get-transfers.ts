import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { walletCalls } from '@portal/contracts/api/wallet';
import { call } from '../../../lib/api';

export const TRANSFERS_KEY = ['transfer', 'list'] as const;

/** GET relay GCS_walletTransfer: transfers sent or received, amounts signed from the caller's side. */
export function getTransfers(pageNo: number, pageSize: number, signal?: AbortSignal) {
  return call(walletCalls.transfers, { query: { pageNo, pageSize }, signal });
}

export const transfersQueryOptions = (pageNo: number, pageSize = 10) =>
  queryOptions({ queryKey: [...TRANSFERS_KEY, pageNo, pageSize] as const, queryFn: ({ signal }) => getTransfers(pageNo, pageSize, signal), placeholderData: keepPreviousData });

export function useTransfers(pageNo: number, pageSize = 10) {
  return useQuery(transfersQueryOptions(pageNo, pageSize));
}
