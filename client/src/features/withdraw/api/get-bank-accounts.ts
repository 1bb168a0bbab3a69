import { queryOptions, useQuery } from '@tanstack/react-query';
import { cashierCalls } from '@portal/contracts/api/cashier';
import { call } from '../../../lib/api';

export const BANK_ACCOUNTS_KEY = ['withdraw', 'bankAccounts'] as const;

/** GET /wps/v2/bank-accounts: at most 3, numbers masked. */
export function getBankAccounts(signal?: AbortSignal) {
  return call(cashierCalls.bankAccounts, { query: {}, signal });
}

export const bankAccountsQueryOptions = () => queryOptions({ queryKey: BANK_ACCOUNTS_KEY, queryFn: ({ signal }) => getBankAccounts(signal) });

export function useBankAccounts() {
  return useQuery(bankAccountsQueryOptions());
}
