import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { opsCalls, type ZOpsLoginValue } from '@portal/contracts/api/ops';
import { opsCall } from '../lib/ops-api';
import { setOpsToken } from '../lib/ops-session';
import { OPS_KEY } from './ops-keys';

export type TOpsLoginValue = z.infer<typeof ZOpsLoginValue>;

/** POST /ops/api/session/login. */
export function opsLogin(username: string, password: string, totp?: string): Promise<TOpsLoginValue> {
  return opsCall(opsCalls.login, { body: { username, password, ...(totp ? { totp } : {}) } });
}

/** Signs in and keeps the operator token (never the member's); the session answer is known already. */
export function useOpsLogin() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (i: { username: string; password: string; totp?: string }) => opsLogin(i.username, i.password, i.totp),
    onSuccess: ({ token, ...me }) => {
      qc.setQueryData([...OPS_KEY, 'session', token], me);
      setOpsToken(token);
    },
  });
}
