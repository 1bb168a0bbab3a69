import { useMutation, useQueryClient } from '@tanstack/react-query';
import { agentReportCalls } from '@portal/contracts/api/agent-reports';
import { call } from '../../../lib/api';
import { DOWNLINES_KEY } from './get-downlines';

/** POST /wps/agent/downlines/:id/set-agent: a direct downline becomes an agent. */
export function setAgent(id: number) {
  return call(agentReportCalls.setAgent, { params: { id }, body: {} });
}

export function useSetAgent() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: setAgent, onSuccess: () => qc.invalidateQueries({ queryKey: DOWNLINES_KEY }) });
}
