import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { betsCalls } from '@portal/contracts/api/bets';
import { call } from '../../../lib/api';

export type BetsQuery = { from: string; to: string; pageNo: number; pageSize: number; vendor?: string };

/** GET /wps/v2/bets (module TRANSBETREPMEM3): the member's game rounds in a yyyy-MM-dd range. */
export function getBets(q: BetsQuery, signal?: AbortSignal) {
  return call(betsCalls.list, { query: q, signal });
}

export const betsQueryOptions = (q: BetsQuery) =>
  queryOptions({ queryKey: ['records', 'bets', q] as const, queryFn: ({ signal }) => getBets(q, signal), placeholderData: keepPreviousData });

export function useBets(q: BetsQuery) {
  return useQuery(betsQueryOptions(q));
}
