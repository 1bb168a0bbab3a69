import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { pointCalls } from '@portal/contracts/api/points';
import { REDEEM_STATUSES, type TRedeemStatus } from '@portal/contracts/domain/points';
import { call } from '../../../lib/api';
import { useSessionToken } from '../../../lib/session';
import { useLoginFlags } from '../../../lib/login-state';

/** Query keys: everything of points under ['points', token] so a sign-in or sign-out refetches. */
export const pointsKey = (token: string | null) => ['points', token] as const;
const lang = (l: string): 'EN' | 'TY' => (l === 'TY' ? 'TY' : 'EN');
export const POINTS_PAGE_SIZE = 10;

/** MCS2_getPointBalance (members only). */
export function usePointBalance() {
  const token = useSessionToken();
  // A trial account has no points (the server refuses it): not asked.
  const { isTrial } = useLoginFlags();
  return useQuery(queryOptions({
    queryKey: [...pointsKey(token), 'balance'] as const,
    queryFn: ({ signal }) => call(pointCalls.balance, { query: {}, signal }),
    enabled: token !== null && !isTrial,
  }));
}

/** getPointConfig: the ratio, conversion rate and minimum (guests too). */
export function usePointConfig() {
  return useQuery(queryOptions({ queryKey: ['points-config'] as const, queryFn: ({ signal }) => call(pointCalls.config, { query: {}, signal }) }));
}

/** getPointReward: the catalogue in the page's language (guests too). */
export function usePointRewards() {
  const { i18n } = useTranslation();
  const token = useSessionToken();
  const language = lang(i18n.language);
  return useQuery(queryOptions({
    queryKey: [...pointsKey(token), 'rewards', language] as const,
    queryFn: ({ signal }) => call(pointCalls.rewards, { query: { language }, signal }),
  }));
}

/** The redeem history's status filter: 'all' (the default) or one status. */
export type RedeemFilter = 'all' | TRedeemStatus;
export const REDEEM_FILTERS: readonly RedeemFilter[] = ['all', ...REDEEM_STATUSES];

/** getRedeemPointList: the caller's redeems, newest first; 'all' sends no status. */
export function useRedeems(pageNo: number, filter: RedeemFilter = 'all') {
  const { i18n } = useTranslation();
  const token = useSessionToken();
  const language = lang(i18n.language);
  return useQuery(queryOptions({
    queryKey: [...pointsKey(token), 'redeems', language, filter, pageNo] as const,
    queryFn: ({ signal }) => call(pointCalls.redeems, { query: { language, pageNo, pageSize: POINTS_PAGE_SIZE, ...(filter === 'all' ? {} : { status: filter }) }, signal }),
    enabled: token !== null,
    placeholderData: keepPreviousData,
  }));
}

/** Points details: every change of the balance, newest first. */
export function usePointHistory(pageNo: number) {
  const token = useSessionToken();
  return useQuery(queryOptions({
    queryKey: [...pointsKey(token), 'history', pageNo] as const,
    queryFn: ({ signal }) => call(pointCalls.history, { query: { pageNo, pageSize: POINTS_PAGE_SIZE }, signal }),
    enabled: token !== null,
    placeholderData: keepPreviousData,
  }));
}

function usePointsMutation<T, R>(fn: (b: T) => Promise<R>) {
  const qc = useQueryClient();
  const token = useSessionToken();
  return useMutation({ mutationFn: fn, onSettled: () => qc.invalidateQueries({ queryKey: pointsKey(token) }) });
}
/** passwordCheck/MCS2_redeemPointReward (one requestId per attempt: a retry redeems once). */
export const useRedeemReward = () => usePointsMutation((b: { rewardId: number; quantity: number; withdrawPassword: string; requestId: string }) => call(pointCalls.redeem, { body: b }));
/** passwordCheck/MCS2_convertPoint. */
export const useConvertPoints = () => usePointsMutation((b: { points: number; withdrawPassword: string; requestId: string }) => call(pointCalls.convert, { body: b }));
