import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { opsCalls, type OperatorRole, type ZUpdateOperatorBody } from '@portal/contracts/api/ops';
import { opsCall } from '../lib/ops-api';
import { OPS_KEY, OPS_POLL_MS } from './ops-keys';

const operatorsKey = [...OPS_KEY, 'operators'] as const;

/** GET /ops/api/operators (administrators). */
export const operatorsQuery = () =>
  queryOptions({ queryKey: operatorsKey, queryFn: ({ signal }) => opsCall(opsCalls.operators, { query: {}, signal }), refetchInterval: OPS_POLL_MS * 6 });

export function useOperators() {
  return useQuery(operatorsQuery());
}

/** POST /ops/api/operators: the answer holds the one-time password, shown once. */
export function useCreateOperator() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (b: { username: string; roles: OperatorRole[] }) => opsCall(opsCalls.createOperator, { body: b }),
    onSettled: () => qc.invalidateQueries({ queryKey: operatorsKey }),
  });
}

/** POST /ops/api/operators/:id: roles, status or a TOTP reset. */
export function useUpdateOperator() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (i: { id: number; body: z.input<typeof ZUpdateOperatorBody> }) => opsCall(opsCalls.updateOperator, { params: { id: i.id }, body: i.body }),
    onSettled: () => qc.invalidateQueries({ queryKey: operatorsKey }),
  });
}
