import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { agentReportCalls, type ZCreateDownlineBody } from '@portal/contracts/api/agent-reports';
import { call } from '../../../lib/api';
import { AGENT_REPORTS_KEY } from './get-team-overview';

/** POST /wps/agent/downlines: a player or agent account created directly under the caller. */
export function createDownline(body: z.input<typeof ZCreateDownlineBody>) {
  return call(agentReportCalls.createDownline, { body });
}

export function useCreateDownline() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: createDownline, onSuccess: () => qc.invalidateQueries({ queryKey: AGENT_REPORTS_KEY }) });
}
