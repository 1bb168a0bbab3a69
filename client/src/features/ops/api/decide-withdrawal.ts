import { useMutation, useQueryClient } from '@tanstack/react-query';
import { opsCalls } from '@portal/contracts/api/ops';
import { opsCall } from '../lib/ops-api';
import type { WithdrawalAction } from '../lib/withdrawal-actions';
import { OPS_KEY } from './ops-keys';

export type WithdrawalDecision = { id: string; action: WithdrawalAction; text: string; payoutReference: string };

/**
 * One operator step on a withdrawal: approve, reject, paid, unknown (held) or reconcile. The
 * gateway checks the transition again: INVALID_STATE when another operator moved it first.
 */
export function decideWithdrawal({ id, action, text, payoutReference }: WithdrawalDecision) {
  const params = { id };
  const ref = payoutReference.trim() ? { payoutReference: payoutReference.trim() } : {};
  switch (action) {
    case 'approve':
      return opsCall(opsCalls.approveWithdrawal, { params, body: text.trim() ? { note: text.trim() } : {} });
    case 'reject':
      return opsCall(opsCalls.rejectWithdrawal, { params, body: { reason: text } });
    case 'paid':
      return opsCall(opsCalls.payWithdrawal, { params, body: ref });
    case 'unknown':
      return opsCall(opsCalls.unknownWithdrawal, { params, body: { reason: text } });
    case 'reconcilePaid':
      return opsCall(opsCalls.reconcileWithdrawal, { params, body: { outcome: 'paid', note: text, ...ref } });
    case 'reconcileFailed':
      return opsCall(opsCalls.reconcileWithdrawal, { params, body: { outcome: 'failed', note: text } });
  }
}

export function useDecideWithdrawal() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: decideWithdrawal, onSettled: () => qc.invalidateQueries({ queryKey: OPS_KEY }) });
}
