import { useQueryClient } from '@tanstack/react-query';
import type { TReward } from '@portal/contracts/api/promotions';
import { useRealtimeEvent } from '../../../realtime/realtime-context';
import { setFromEvent } from '../../../realtime/cache-mapping';
import { useSessionToken } from '../../../lib/session';
import { promotionsKey } from '../api/promotions';

type Rewards = { list: TReward[]; claimable: number; processing: number; bonusBalance: number };

/**
 * Live promotions: bonus.progress moves a bonus's wagering in the cached reward list at once (no fetch);
 * a change of state (a conversion, a forfeiture, a conversion taken back by a cancelled bet, which moves
 * the bonus balance and what the player kept) and promotion.reward refetch the lists and badges.
 */
export function usePromotionEvents() {
  const qc = useQueryClient();
  const token = useSessionToken();
  useRealtimeEvent('bonus.progress', (env) => {
    const p = env.payload;
    let stateChanged = p.state !== 'processing';
    void setFromEvent<Rewards>(qc, [...promotionsKey(token), 'rewards'], (data) => data && {
      ...data,
      list: data.list.map((r) => {
        if (r.id !== p.rewardId) return r;
        if (r.state !== p.state) stateChanged = true;
        return { ...r, wagerProgress: p.wagerProgress, wagerRequired: p.wagerRequired, state: p.state };
      }),
    }).then(() => {
      if (stateChanged) void qc.invalidateQueries({ queryKey: promotionsKey(token) });
    });
  });
  useRealtimeEvent('promotion.reward', () => void qc.invalidateQueries({ queryKey: promotionsKey(token) }));
}
