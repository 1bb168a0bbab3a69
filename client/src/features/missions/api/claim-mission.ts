import { useMutation, useQueryClient } from '@tanstack/react-query';
import { missionCalls } from '@portal/contracts/api/missions';
import { call } from '../../../lib/api';
import { useSessionToken } from '../../../lib/session';
import { missionsKey } from './get-mission-summary';

/** Claim a completed mission's reward (once; a period that is over cannot be claimed). The lists refetch after. */
export function useClaimMission() {
  const qc = useQueryClient();
  const token = useSessionToken();
  return useMutation({
    mutationFn: (b: { missionId: number; periodKey: string }) => call(missionCalls.claim, { body: b }),
    onSettled: () => qc.invalidateQueries({ queryKey: missionsKey(token) }),
  });
}
