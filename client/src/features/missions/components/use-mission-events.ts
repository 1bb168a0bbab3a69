import { useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ZMissionSummary } from '@portal/contracts/api/missions';
import type { EventPayload } from '@portal/contracts/events/events';
import { useRealtimeEvent } from '../../../realtime/realtime-context';
import { setFromEvent } from '../../../realtime/cache-mapping';
import { useSessionToken } from '../../../lib/session';
import { missionsKey } from '../api/get-mission-summary';

type Summary = z.infer<typeof ZMissionSummary>;

/**
 * A mission.progress applied to a cached summary: the mission of that period takes the event's progress
 * and status, the badge its count. `known` is false when the summary has no such mission and period
 * (a new mission or a new period): the caller reads the summary again.
 */
export function applyMissionProgress(data: Summary, p: EventPayload<'mission.progress'>): { data: Summary; known: boolean } {
  let known = false;
  const list = data.list.map((m) => {
    if (m.id !== p.missionId || m.periodKey !== p.periodKey) return m;
    known = true;
    return { ...m, progress: p.progress, target: p.target, status: p.status };
  });
  return { data: { ...data, list, claimable: p.claimable }, known };
}

/**
 * Live missions: mission.progress moves the card's progress and status and the badge in the cached
 * summary at once (no fetch); the leaderboard is refetched when a bet moved the player's progress.
 */
export function useMissionEvents() {
  const qc = useQueryClient();
  const token = useSessionToken();
  useRealtimeEvent('mission.progress', (env) => {
    const p = env.payload;
    let known = false;
    void setFromEvent<Summary>(qc, [...missionsKey(token), 'summary'], (data) => {
      if (!data) return data;
      const next = applyMissionProgress(data, p);
      known ||= next.known;
      return next.data;
    }).then(() => {
      // A mission not in the cache (new, or a new period): read the summary again.
      if (!known) void qc.invalidateQueries({ queryKey: [...missionsKey(token), 'summary'] });
    });
    void qc.invalidateQueries({ queryKey: [...missionsKey(token), 'leaderboard'] });
  });
}
