import { queryOptions, useQuery } from '@tanstack/react-query';
import { missionCalls } from '@portal/contracts/api/missions';
import type { TMissionPeriod } from '@portal/contracts/domain/missions';
import { call } from '../../../lib/api';
import { useSessionToken } from '../../../lib/session';
import { missionsKey } from './get-mission-summary';

/** getMissionLeaderboard: top players by valid bets of the day or week, and the caller's own place. */
export function leaderboardQuery(token: string | null, period: TMissionPeriod) {
  return queryOptions({
    queryKey: [...missionsKey(token), 'leaderboard', period] as const,
    queryFn: ({ signal }) => call(missionCalls.leaderboard, { query: { period, limit: 20 }, signal }),
  });
}
export const useLeaderboard = (period: TMissionPeriod) => useQuery(leaderboardQuery(useSessionToken(), period));
