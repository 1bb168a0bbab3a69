import { useMutation, useQueryClient } from '@tanstack/react-query';
import { cashierCalls } from '@portal/contracts/api/cashier';
import { call } from '../../../lib/api';
import { BANK_ACCOUNTS_KEY } from './get-bank-accounts';

/** DELETE /wps/v2/bank-accounts/:id. */
export function removeBankAccount(id: string) {
  return call(cashierCalls.removeBankAccount, { params: { id } });
}

export function useRemoveBankAccount() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: removeBankAccount, onSettled: () => qc.invalidateQueries({ queryKey: BANK_ACCOUNTS_KEY }) });
}
