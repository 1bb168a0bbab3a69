import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { opsCalls, type ZOpsPasswordBody } from '@portal/contracts/api/ops';
import { opsCall } from '../lib/ops-api';
import { OPS_KEY } from './ops-keys';

/** POST /ops/api/session/password: this session goes on, the operator's others end. */
export function changeOpsPassword(body: z.input<typeof ZOpsPasswordBody>) {
  return opsCall(opsCalls.changePassword, { body });
}

export function useChangeOpsPassword() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: changeOpsPassword,
    onSuccess: () => qc.invalidateQueries({ queryKey: [...OPS_KEY, 'session'] }),
  });
}
