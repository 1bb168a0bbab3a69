import { queryOptions, useQuery } from '@tanstack/react-query';
import { oidcCalls } from '@portal/contracts/api/auth';
import type { TOidcConfigValue } from '@portal/contracts/api/auth';
import { call } from '../../../lib/api';

/** GET /wps/session/oidc/config: whether social sign-in is on, and the provider's display name. */
export function getOidcConfig(signal?: AbortSignal): Promise<TOidcConfigValue> {
  return call(oidcCalls.oidcConfig, { query: {}, signal });
}

export function oidcConfigQueryOptions() {
  return queryOptions({
    queryKey: ['session', 'oidcConfig'] as const,
    queryFn: ({ signal }) => getOidcConfig(signal),
    staleTime: 30 * 60_000,
  });
}

export function useOidcConfig() {
  return useQuery(oidcConfigQueryOptions());
}
