import { useMutation, useQueryClient } from '@tanstack/react-query';
import { opsCalls } from '@portal/contracts/api/ops';
import { opsCall } from '../lib/ops-api';
import { clearOpsToken } from '../lib/ops-session';
import { OPS_KEY } from './ops-keys';

/** DELETE /ops/api/session; the token is dropped here whatever the answer. */
export async function opsLogout(): Promise<void> {
  try {
    await opsCall(opsCalls.logout);
  } finally {
    clearOpsToken();
  }
}

export function useOpsLogout() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: opsLogout,
    onSettled: () => qc.removeQueries({ queryKey: OPS_KEY }),
  });
}
