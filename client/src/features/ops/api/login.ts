import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { opsCalls, type ZOpsLoginValue } from '@portal/contracts/api/ops';
import { opsCall } from '../lib/ops-api';
import { setOpsToken } from '../lib/ops-session';

export type TOpsLoginValue = z.infer<typeof ZOpsLoginValue>;

/** POST /ops/api/session/login: keeps the operator token (never the member's). */
export async function opsLogin(username: string, password: string): Promise<TOpsLoginValue> {
  const v = await opsCall(opsCalls.login, { body: { username, password } });
  setOpsToken(v.token);
  return v;
}

export function useOpsLogin() {
  return useMutation({ mutationFn: (i: { username: string; password: string }) => opsLogin(i.username, i.password) });
}
