import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { opsProviderCalls } from '@portal/contracts/api/ops-providers';
import { opsCall } from '../lib/ops-api';
import { OPS_KEY, OPS_POLL_MS } from './ops-keys';

const providersKey = [...OPS_KEY, 'providers'] as const;

/** GET /ops/api/providers: the merchant's vendors with their game counts and connection (never a secret). */
export const providersQuery = () =>
  queryOptions({ queryKey: providersKey, queryFn: ({ signal }) => opsCall(opsProviderCalls.providers, { query: {}, signal }), refetchInterval: OPS_POLL_MS * 6 });

export function useProviders() {
  return useQuery(providersQuery());
}

/** POST /ops/api/providers/connect: the answer holds a new signing secret (shown once), or null when the secret was kept. */
export function useConnectProvider() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (b: { vendor: string; launchUrl: string }) => opsCall(opsProviderCalls.connect, { body: b }),
    onSettled: () => qc.invalidateQueries({ queryKey: providersKey }),
  });
}

/** POST /ops/api/providers/secret: a new signing secret (shown once); the old one stops working. */
export function useRotateProviderSecret() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (b: { vendor: string }) => opsCall(opsProviderCalls.rotateSecret, { body: b }),
    onSettled: () => qc.invalidateQueries({ queryKey: providersKey }),
  });
}

/** POST /ops/api/providers/disconnect, with the reason. */
export function useDisconnectProvider() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (b: { vendor: string; reason: string }) => opsCall(opsProviderCalls.disconnect, { body: b }),
    onSettled: () => qc.invalidateQueries({ queryKey: providersKey }),
  });
}
