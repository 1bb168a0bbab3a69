import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { promotionCalls } from '@portal/contracts/api/promotions';
import type { TPromotionCategory } from '@portal/contracts/domain/promotions';
import { call } from '../../../lib/api';
import { useSessionToken } from '../../../lib/session';

/** Query keys: everything of promotions under ['promotions', token] so a sign-in or sign-out refetches. */
export const promotionsKey = (token: string | null) => ['promotions', token] as const;
const lang = (l: string): 'EN' | 'TY' => (l === 'TY' ? 'TY' : 'EN');

/** GET /wps/v2/promotions: the list by category with the caller's status on each. */
export function promotionsQuery(token: string | null, language: 'EN' | 'TY', category?: TPromotionCategory) {
  return queryOptions({
    queryKey: [...promotionsKey(token), 'list', language, category ?? 'all'] as const,
    queryFn: ({ signal }) => call(promotionCalls.list, { query: { language, ...(category ? { category } : {}) }, signal }),
  });
}
export function usePromotions(category?: TPromotionCategory) {
  const { i18n } = useTranslation();
  return useQuery(promotionsQuery(useSessionToken(), lang(i18n.language), category));
}

/** GET /wps/v2/promotions/rewards: the reward centre, bonus details and their badge counts. */
export function rewardsQuery(token: string | null, language: 'EN' | 'TY') {
  return queryOptions({
    queryKey: [...promotionsKey(token), 'rewards', language] as const,
    queryFn: ({ signal }) => call(promotionCalls.rewards, { query: { language }, signal }),
    enabled: token !== null,
  });
}
export function useRewards(enabled = true) {
  const { i18n } = useTranslation();
  const token = useSessionToken();
  return useQuery({ ...rewardsQuery(enabled ? token : null, lang(i18n.language)) });
}

export function useRaffle(promotionId: string | null) {
  const token = useSessionToken();
  return useQuery({
    queryKey: [...promotionsKey(token), 'raffle', promotionId] as const,
    queryFn: ({ signal }) => call(promotionCalls.raffle, { query: { promotionId: Number(promotionId) }, signal }),
    enabled: promotionId !== null,
  });
}

function usePromotionMutation<T, R>(fn: (b: T, language: 'EN' | 'TY') => Promise<R>) {
  const qc = useQueryClient();
  const token = useSessionToken();
  const { i18n } = useTranslation();
  return useMutation({ mutationFn: (b: T) => fn(b, lang(i18n.language)), onSettled: () => qc.invalidateQueries({ queryKey: promotionsKey(token) }) });
}
/** MCSFE_signUpPromotionJoin. */
export const useJoinPromotion = () => usePromotionMutation((promotionId: number) => call(promotionCalls.join, { body: { promotionId } }));
/** MCSFE_signUpRequestReward (remark: at most 140 characters). */
export const useRequestReward = () => usePromotionMutation((b: { promotionId: number; remark: string }) => call(promotionCalls.requestReward, { body: b }));
/** MCS2_claimRafflePromotion. */
export const useClaimRaffle = () => usePromotionMutation((promotionId: number) => call(promotionCalls.claimRaffle, { body: { promotionId } }));
/** Claim a reward of the reward centre. */
export const useClaimReward = () => usePromotionMutation((rewardId: number) => call(promotionCalls.claim, { body: { rewardId } }));
