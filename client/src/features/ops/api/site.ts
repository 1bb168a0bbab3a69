import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { opsCalls, type ZSiteSettingsPatch } from '@portal/contracts/api/ops';
import { opsCall } from '../lib/ops-api';
import { OPS_KEY, OPS_POLL_MS } from './ops-keys';

export const siteKey = [...OPS_KEY, 'site'] as const;

/** GET /ops/api/site: maintenance, blocked addresses and regions, module flags, whitelabel values, security. */
export const siteQuery = () =>
  queryOptions({
    queryKey: siteKey,
    queryFn: ({ signal }) => opsCall(opsCalls.site, { query: {}, signal }),
    refetchInterval: OPS_POLL_MS * 6,
  });

export function useOpsSite() {
  return useQuery(siteQuery());
}

/** PUT /ops/api/site with the changed parts only; players' open pages follow at once (system.changed). */
export function useUpdateSite() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: z.input<typeof ZSiteSettingsPatch>) => opsCall(opsCalls.updateSite, { body }),
    onSuccess: (v) => qc.setQueryData(siteKey, v),
  });
}
