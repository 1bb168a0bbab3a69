import { useMutation, useQueryClient } from '@tanstack/react-query';
import { isAlreadySet, setTransactionPassword, TRANSACTION_PASSWORD_KEY } from '../../../lib/transaction-password';
import { WITHDRAWAL_LIMITS_KEY } from './get-withdrawal-limits';

/** POST /wps/member/withdraw-password from the withdraw tab: the first one, with the login password. */
export function useSetWithdrawPassword() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: setTransactionPassword,
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: WITHDRAWAL_LIMITS_KEY }), qc.invalidateQueries({ queryKey: TRANSACTION_PASSWORD_KEY })]),
    // set meanwhile in another tab: the form gives way to the withdrawal form
    onError: (err) => (isAlreadySet(err) ? Promise.all([qc.invalidateQueries({ queryKey: WITHDRAWAL_LIMITS_KEY }), qc.invalidateQueries({ queryKey: TRANSACTION_PASSWORD_KEY })]) : undefined),
  });
}
