import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { opsAgentApplicationCalls, type ZOpsAgentApplicationDecision, type ZOpsAgentApplicationsQuery } from '@portal/contracts/api/agent-applications';
import { opsCall } from '../lib/ops-api';
import { OPS_KEY, OPS_POLL_MS } from './ops-keys';

const KEY = [...OPS_KEY, 'agent-applications'] as const;

/** GET /ops/api/agent-applications by status, polled (new applications arrive while the page is open). */
export function useAgentApplications(q: z.input<typeof ZOpsAgentApplicationsQuery>) {
  return useQuery({
    queryKey: [...KEY, q],
    queryFn: ({ signal }) => opsCall(opsAgentApplicationCalls.list, { query: q, signal }),
    refetchInterval: OPS_POLL_MS,
    placeholderData: keepPreviousData,
  });
}

/** POST /ops/api/agent-applications/:id/decide: approve (the player becomes a top agent) or reject with a reason. */
export function useDecideApplication() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (r: { id: string; body: z.input<typeof ZOpsAgentApplicationDecision> }) => opsCall(opsAgentApplicationCalls.decide, { params: { id: r.id }, body: r.body }),
    onSettled: () => qc.invalidateQueries({ queryKey: OPS_KEY }),
  });
}
