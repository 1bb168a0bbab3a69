import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { cashierCalls, type ZCreateDepositBody } from '@portal/contracts/api/cashier';
import { call } from '../../../lib/api';
import { DEPOSITS_KEY } from './get-deposits';

export type CreateDepositBody = z.input<typeof ZCreateDepositBody>;

/** POST /wps/v2/deposit/orders; the same requestId and terms make one order (safe to retry). */
export function createDeposit(body: CreateDepositBody) {
  return call(cashierCalls.createDeposit, { body });
}

export function useCreateDeposit() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: createDeposit, onSettled: () => qc.invalidateQueries({ queryKey: DEPOSITS_KEY }) });
}
