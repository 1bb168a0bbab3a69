import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { opsMissionCalls, type ZOpsMissionBody } from '@portal/contracts/api/missions';
import { opsCall } from '../lib/ops-api';
import { OPS_KEY } from './ops-keys';

const key = [...OPS_KEY, 'missions'] as const;
export type MissionBody = z.input<typeof ZOpsMissionBody>;

/** GET /ops/api/missions. */
export const useOpsMissions = () => useQuery(queryOptions({ queryKey: [...key, 'list'], queryFn: ({ signal }) => opsCall(opsMissionCalls.list, { signal }) }));

/** POST /ops/api/missions (id null) or PUT /ops/api/missions/:id (edit; enabled false disables). */
export function useSaveMission() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (i: { id: string | null; body: MissionBody }) =>
      i.id === null
        ? opsCall(opsMissionCalls.create, { body: i.body as z.infer<typeof ZOpsMissionBody> })
        : opsCall(opsMissionCalls.update, { params: { id: Number(i.id) }, body: i.body as z.infer<typeof ZOpsMissionBody> }),
    onSettled: () => qc.invalidateQueries({ queryKey: key }),
  });
}
