import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { agentReportCalls, type ZCreateInvitationBody } from '@portal/contracts/api/agent-reports';
import { call } from '../../../lib/api';
import { AGENT_REPORTS_KEY } from './get-team-overview';

export const INVITATIONS_KEY = [...AGENT_REPORTS_KEY, 'invitations'] as const;

/** GET /wps/agent/invitations: the caller's invitation links with quota and use. */
export function getInvitations(signal?: AbortSignal) {
  return call(agentReportCalls.invitations, { query: {}, signal });
}
export const invitationsQueryOptions = () => queryOptions({ queryKey: INVITATIONS_KEY, queryFn: ({ signal }) => getInvitations(signal) });
export function useInvitations() {
  return useQuery(invitationsQueryOptions());
}

/** POST /wps/agent/invitations: a new link for player or agent accounts with a quota. */
export function createInvitation(body: z.input<typeof ZCreateInvitationBody>) {
  return call(agentReportCalls.createInvitation, { body });
}
export function useCreateInvitation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: createInvitation, onSuccess: () => qc.invalidateQueries({ queryKey: INVITATIONS_KEY }) });
}

/** POST /wps/agent/invitations/:id/disable: the link stops registering accounts. */
export function disableInvitation(id: number) {
  return call(agentReportCalls.disableInvitation, { params: { id }, body: {} });
}
export function useDisableInvitation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: disableInvitation, onSuccess: () => qc.invalidateQueries({ queryKey: INVITATIONS_KEY }) });
}
