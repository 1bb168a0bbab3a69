import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { profitCalls } from '@portal/contracts/api/profit';
import { call } from '../../../lib/api';

export type ProfitQuery = { period: 'today' | '7d' | '30d' | 'custom'; from?: string; to?: string };

/** GET /wps/v2/profit: the member's own profit and loss per game type, with totals. */
export const profitQuery = (q: ProfitQuery) =>
  queryOptions({
    queryKey: ['profit', q.period, q.from ?? '', q.to ?? ''] as const,
    queryFn: ({ signal }) => call(profitCalls.personal, { query: q, signal }),
    placeholderData: keepPreviousData,
  });
export function useProfit(q: ProfitQuery, enabled = true) {
  return useQuery({ ...profitQuery(q), enabled });
}
