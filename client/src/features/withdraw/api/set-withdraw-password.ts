import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { cashierCalls, type ZWithdrawPasswordBody } from '@portal/contracts/api/cashier';
import { call } from '../../../lib/api';
import { WITHDRAWAL_LIMITS_KEY } from './get-withdrawal-limits';

/** POST /wps/member/withdraw-password: the first one with the login password. */
export function setWithdrawPassword(body: z.input<typeof ZWithdrawPasswordBody>) {
  return call(cashierCalls.setWithdrawPassword, { body });
}

export function useSetWithdrawPassword() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: setWithdrawPassword, onSuccess: () => qc.invalidateQueries({ queryKey: WITHDRAWAL_LIMITS_KEY }) });
}
