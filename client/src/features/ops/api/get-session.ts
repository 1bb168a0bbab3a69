import { queryOptions, useQuery } from '@tanstack/react-query';
import { opsCalls } from '@portal/contracts/api/ops';
import { opsCall } from '../lib/ops-api';
import { useOpsToken } from '../lib/ops-session';
import { OPS_KEY } from './ops-keys';

/** GET /ops/api/session: who is signed in, the role, and whether the password must change first. */
export const opsSessionQuery = (token: string | null) =>
  queryOptions({
    queryKey: [...OPS_KEY, 'session', token],
    queryFn: ({ signal }) => opsCall(opsCalls.me, { query: {}, signal }),
    enabled: token !== null,
    staleTime: 60_000,
  });

export function useOpsSession() {
  const token = useOpsToken();
  return { token, ...useQuery(opsSessionQuery(token)) };
}
