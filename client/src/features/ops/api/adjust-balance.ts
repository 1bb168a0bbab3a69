import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { opsCalls, type ZOpsAdjustmentBody } from '@portal/contracts/api/ops';
import { opsCall } from '../lib/ops-api';
import { OPS_KEY } from './ops-keys';

/** POST /ops/api/adjustments: the same requestId applies once (a retry after a lost answer is safe). */
export function adjustBalance(body: z.input<typeof ZOpsAdjustmentBody>) {
  return opsCall(opsCalls.adjust, { body });
}

export function useAdjustBalance() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: adjustBalance, onSettled: () => qc.invalidateQueries({ queryKey: [...OPS_KEY, 'audit'] }) });
}
