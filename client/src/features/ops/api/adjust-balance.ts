import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { opsCalls, type ZOpsAdjustmentBody } from '@portal/contracts/api/ops';
import { opsCall } from '../lib/ops-api';
import { OPS_KEY } from './ops-keys';

const ADJUSTMENTS_KEY = [...OPS_KEY, 'adjustments'] as const;

/** POST /ops/api/adjustments: the same requestId applies once (a retry after a lost answer is safe). */
export function adjustBalance(body: z.input<typeof ZOpsAdjustmentBody>) {
  return opsCall(opsCalls.adjust, { body });
}

export function useAdjustBalance() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: adjustBalance,
    onSettled: () => Promise.all([qc.invalidateQueries({ queryKey: [...OPS_KEY, 'audit'] }), qc.invalidateQueries({ queryKey: ADJUSTMENTS_KEY })]),
  });
}

/** GET /ops/api/adjustments: the latest adjustments from the ledger, for those who may make them. */
export function useOpsAdjustments(pageNo: number, enabled: boolean) {
  return useQuery({
    queryKey: [...ADJUSTMENTS_KEY, pageNo],
    queryFn: ({ signal }) => opsCall(opsCalls.adjustments, { query: { pageNo, pageSize: 10 }, signal }),
    enabled,
  });
}
