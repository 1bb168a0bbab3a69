import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { walletCalls } from '@portal/contracts/api/wallet';
import { call } from '../../../lib/api';

export type RecordsQuery = { from: string; to: string; pageNo: number; pageSize: number };

/** GET /wps/v2/wallets/records (module TRANSREC3): ledger movements in a yyyy-MM-dd range. */
export function getRecords(q: RecordsQuery, signal?: AbortSignal) {
  return call(walletCalls.records, { query: q, signal });
}

export const recordsQueryOptions = (q: RecordsQuery) =>
  queryOptions({ queryKey: ['records', 'account', q] as const, queryFn: ({ signal }) => getRecords(q, signal), placeholderData: keepPreviousData });

export function useRecords(q: RecordsQuery) {
  return useQuery(recordsQueryOptions(q));
}
