import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { referralCalls } from '@portal/contracts/api/referral';
import { call } from '../../../lib/api';

/** GET /wps/v2/referral: the member's link (on the merchant's domain) and who registered through it. */
export const referralQuery = (pageNo: number, pageSize = 10) =>
  queryOptions({
    queryKey: ['referral', pageNo, pageSize] as const,
    queryFn: ({ signal }) => call(referralCalls.summary, { query: { pageNo, pageSize }, signal }),
    placeholderData: keepPreviousData,
  });
export function useReferral(pageNo: number) {
  return useQuery(referralQuery(pageNo));
}
