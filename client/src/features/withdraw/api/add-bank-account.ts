import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { cashierCalls, type ZAddBankAccountBody } from '@portal/contracts/api/cashier';
import { call } from '../../../lib/api';
import { BANK_ACCOUNTS_KEY } from './get-bank-accounts';

/** POST /wps/v2/bank-accounts (needs the withdraw password). */
export function addBankAccount(body: z.input<typeof ZAddBankAccountBody>) {
  return call(cashierCalls.addBankAccount, { body });
}

export function useAddBankAccount() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: addBankAccount, onSuccess: () => qc.invalidateQueries({ queryKey: BANK_ACCOUNTS_KEY }) });
}
