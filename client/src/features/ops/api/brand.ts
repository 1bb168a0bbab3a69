import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { opsPlayerCalls, type ZOpsBrandPatch, type ZOpsRegistrationBody } from '@portal/contracts/api/ops-players';
import { opsCall } from '../lib/ops-api';
import { OPS_KEY } from './ops-keys';

const brandKey = [...OPS_KEY, 'brand'] as const;
const registrationKey = [...OPS_KEY, 'registration'] as const;

/** GET /ops/api/brand: site name, logo, video, analytics tag and CDN lists. */
export function useOpsBrand() {
  return useQuery({ queryKey: brandKey, queryFn: ({ signal }) => opsCall(opsPlayerCalls.brand, { query: {}, signal }) });
}
/** PUT /ops/api/brand: players' open pages re-read the whitelabel at once (system.changed). */
export function useUpdateBrand() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: z.input<typeof ZOpsBrandPatch>) => opsCall(opsPlayerCalls.updateBrand, { body }),
    onSuccess: (v) => qc.setQueryData(brandKey, v),
  });
}

/** GET /ops/api/registration: every registration field's rule, as the register form gets it. */
export function useOpsRegistration() {
  return useQuery({ queryKey: registrationKey, queryFn: ({ signal }) => opsCall(opsPlayerCalls.registration, { query: {}, signal }) });
}
/** PUT /ops/api/registration: the fields given replace their rules. */
export function useUpdateRegistration() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: z.input<typeof ZOpsRegistrationBody>) => opsCall(opsPlayerCalls.updateRegistration, { body }),
    onSuccess: (v) => qc.setQueryData(registrationKey, v),
  });
}
