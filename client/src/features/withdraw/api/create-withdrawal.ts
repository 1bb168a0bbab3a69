import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { cashierCalls, type ZCreateWithdrawalBody } from '@portal/contracts/api/cashier';
import { call } from '../../../lib/api';
import { WITHDRAWAL_LIMITS_KEY } from './get-withdrawal-limits';
import { WITHDRAWALS_KEY } from './get-withdrawals';

/** POST /wps/v2/withdrawals: holds the amount; the same requestId applies once. */
export function createWithdrawal(body: z.input<typeof ZCreateWithdrawalBody>) {
  return call(cashierCalls.createWithdrawal, { body });
}

export function useCreateWithdrawal() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: createWithdrawal,
    onSettled: () => Promise.all([qc.invalidateQueries({ queryKey: WITHDRAWALS_KEY }), qc.invalidateQueries({ queryKey: WITHDRAWAL_LIMITS_KEY })]),
  });
}
