import { describe, expect, it } from 'vitest';
import type { TMission } from '@portal/contracts/api/missions';
import { applyMissionProgress } from './use-mission-events';

const mission = (id: string, periodKey: string, progress: number): TMission => ({
  id, period: 'daily', kind: 'bet_count', gameType: null, title: `M${id}`, target: 3, progress, rewardAmount: 100, periodKey, endsAt: '2026-11-26T16:00:00.000Z', status: 'processing',
});
const summary = { list: [mission('1', '2026-11-25', 1), mission('2', '2026-11-25', 0)], claimable: 0, eligible: true };

describe('mission.progress on the cached summary', () => {
  it('moves the mission of that period and the badge, and nothing else', () => {
    const r = applyMissionProgress(summary, { missionId: '1', periodKey: '2026-11-25', progress: 3, target: 3, status: 'claim', claimable: 1 });
    expect(r.known).toBe(true);
    expect(r.data.list.map((m) => [m.id, m.progress, m.status])).toEqual([['1', 3, 'claim'], ['2', 0, 'processing']]);
    expect(r.data.claimable).toBe(1);
    expect(summary.list[0]!.progress).toBe(1);
  });
  it('an event of another period (or an unknown mission) is not applied: the summary is read again', () => {
    const r = applyMissionProgress(summary, { missionId: '1', periodKey: '2026-11-24', progress: 2, target: 3, status: 'processing', claimable: 0 });
    expect(r.known).toBe(false);
    expect(r.data.list[0]!.progress).toBe(1);
    expect(applyMissionProgress(summary, { missionId: '9', periodKey: '2026-11-25', progress: 1, target: 3, status: 'processing', claimable: 0 }).known).toBe(false);
  });
});
