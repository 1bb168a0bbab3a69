import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { opsPointCalls, type ZOpsPointConfigBody, type ZOpsRewardBody } from '@portal/contracts/api/points';
import type { TRedeemStatus } from '@portal/contracts/domain/points';
import { useTranslation } from 'react-i18next';
import { opsCall } from '../lib/ops-api';
import { OPS_KEY, OPS_POLL_MS } from './ops-keys';

const key = [...OPS_KEY, 'points'] as const;
export type RewardBody = z.infer<typeof ZOpsRewardBody>;

/** GET /ops/api/points/rewards: the catalogue with the redeems of each still processing. */
export const useOpsPointRewards = () => useQuery(queryOptions({ queryKey: [...key, 'rewards'], queryFn: ({ signal }) => opsCall(opsPointCalls.rewards, { query: {}, signal }) }));

/** GET /ops/api/points/redeems: newest first, by status (refreshed while the queue fills). */
export function useOpsRedeems(status: TRedeemStatus | undefined, pageNo: number) {
  // The reward's title in the console's language.
  const language = useTranslation().i18n.language === 'TY' ? 'TY' : 'EN';
  return useQuery(queryOptions({
    queryKey: [...key, 'redeems', status ?? 'all', pageNo, language],
    queryFn: ({ signal }) => opsCall(opsPointCalls.redeems, { query: { pageNo, pageSize: 20, language, ...(status ? { status } : {}) }, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: OPS_POLL_MS,
  }));
}

export const useOpsPointConfig = () => useQuery(queryOptions({ queryKey: [...key, 'config'], queryFn: ({ signal }) => opsCall(opsPointCalls.config, { query: {}, signal }) }));

export function useSaveReward() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (i: { id: string | null; body: RewardBody }) =>
      i.id === null ? opsCall(opsPointCalls.createReward, { body: i.body }) : opsCall(opsPointCalls.updateReward, { params: { id: Number(i.id) }, body: i.body }),
    onSettled: () => qc.invalidateQueries({ queryKey: key }),
  });
}
export function useDecideRedeem() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (i: { id: string; approve: boolean; reason: string }) => opsCall(opsPointCalls.decide, { params: { id: Number(i.id) }, body: { approve: i.approve, reason: i.reason } }),
    onSettled: () => qc.invalidateQueries({ queryKey: key }),
  });
}
export function useSavePointConfig() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: z.infer<typeof ZOpsPointConfigBody>) => opsCall(opsPointCalls.updateConfig, { body }),
    onSettled: () => qc.invalidateQueries({ queryKey: key }),
  });
}
