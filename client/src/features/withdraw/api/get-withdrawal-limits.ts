import { queryOptions, useQuery } from '@tanstack/react-query';
import { cashierCalls } from '@portal/contracts/api/cashier';
import { call } from '../../../lib/api';

export const WITHDRAWAL_LIMITS_KEY = ['withdraw', 'limits'] as const;

/** GET /wps/v2/withdrawals/limits: min, max, daily max and use, auto-receive minutes, whether a withdraw password is set. */
export function getWithdrawalLimits(signal?: AbortSignal) {
  return call(cashierCalls.withdrawalLimits, { query: {}, signal });
}

export const withdrawalLimitsQueryOptions = () => queryOptions({ queryKey: WITHDRAWAL_LIMITS_KEY, queryFn: ({ signal }) => getWithdrawalLimits(signal) });

export function useWithdrawalLimits() {
  return useQuery(withdrawalLimitsQueryOptions());
}
