import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { opsPlatformCalls, type ZCreateMerchantBody, type ZUpdateMerchantBody } from '@portal/contracts/api/ops-platform';
import { opsCall } from '../lib/ops-api';
import { OPS_KEY } from './ops-keys';

const merchantsKey = [...OPS_KEY, 'merchants'] as const;

/** GET /ops/api/platform/merchants (the platform administrator only). */
export function useMerchants(enabled: boolean) {
  return useQuery({ queryKey: merchantsKey, queryFn: ({ signal }) => opsCall(opsPlatformCalls.merchants, { query: {}, signal }), enabled });
}
/** POST /ops/api/platform/merchants. */
export function useCreateMerchant() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: z.input<typeof ZCreateMerchantBody>) => opsCall(opsPlatformCalls.createMerchant, { body }),
    onSettled: () => qc.invalidateQueries({ queryKey: merchantsKey }),
  });
}
/** PUT /ops/api/platform/merchants/:code. */
export function useUpdateMerchant() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (i: { code: string; body: z.input<typeof ZUpdateMerchantBody> }) => opsCall(opsPlatformCalls.updateMerchant, { params: { code: i.code }, body: i.body }),
    onSettled: () => qc.invalidateQueries({ queryKey: merchantsKey }),
  });
}
