import { useMutation, useQueryClient } from '@tanstack/react-query';
import { opsCalls } from '@portal/contracts/api/ops';
import { opsCall } from '../lib/ops-api';
import { OPS_KEY } from './ops-keys';

export type DepositDecision = { id: string; decision: 'confirm'; note?: string } | { id: string; decision: 'reject'; reason: string };

/** POST /ops/api/deposits/:id/confirm or /reject (manual bank deposits only). */
export function decideDeposit(d: DepositDecision) {
  const params = { id: d.id };
  return d.decision === 'confirm'
    ? opsCall(opsCalls.confirmDeposit, { params, body: d.note ? { note: d.note } : {} })
    : opsCall(opsCalls.rejectDeposit, { params, body: { reason: d.reason } });
}

/** Any outcome refreshes every back-office list (another operator may have acted first). */
export function useDecideDeposit() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: decideDeposit, onSettled: () => qc.invalidateQueries({ queryKey: OPS_KEY }) });
}
