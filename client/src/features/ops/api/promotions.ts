import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { opsPromotionCalls, type ZOpsDecideBody, type ZOpsEnvelopeDropBody, type ZOpsPromotionBody } from '@portal/contracts/api/promotions';
import { opsCall } from '../lib/ops-api';
import { OPS_KEY, OPS_POLL_MS } from './ops-keys';

const key = [...OPS_KEY, 'promotions'] as const;
export type PromotionBody = z.input<typeof ZOpsPromotionBody>;

/** GET /ops/api/promotions. */
export const useOpsPromotions = () => useQuery(queryOptions({ queryKey: [...key, 'list'], queryFn: ({ signal }) => opsCall(opsPromotionCalls.list, { signal }) }));
/** GET /ops/api/promotions/requests: reward requests waiting for a decision (read again every OPS_POLL_MS, as the cashier queues are, so a new request shows without a reload). */
export const useOpsRewardRequests = (enabled: boolean) =>
  useQuery(queryOptions({ queryKey: [...key, 'requests'], queryFn: ({ signal }) => opsCall(opsPromotionCalls.requests, { signal }), enabled, refetchInterval: OPS_POLL_MS }));
/** The latest requests an operator decided (the list above keeps only those waiting). */
export const useOpsDecidedRequests = (enabled: boolean) =>
  useQuery(queryOptions({ queryKey: [...key, 'requests', 'decided'], queryFn: ({ signal }) => opsCall(opsPromotionCalls.decidedRequests, { query: { state: 'decided' }, signal }), enabled }));

export function useSavePromotion() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (i: { id: string | null; body: PromotionBody }) =>
      i.id === null ? opsCall(opsPromotionCalls.create, { body: i.body as z.infer<typeof ZOpsPromotionBody> }) : opsCall(opsPromotionCalls.update, { params: { id: Number(i.id) }, body: i.body as z.infer<typeof ZOpsPromotionBody> }),
    onSettled: () => qc.invalidateQueries({ queryKey: key }),
  });
}
export function useDecideRequest() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (i: { id: string; body: z.input<typeof ZOpsDecideBody> }) => opsCall(opsPromotionCalls.decide, { params: { id: Number(i.id) }, body: i.body as z.infer<typeof ZOpsDecideBody> }),
    onSettled: () => qc.invalidateQueries({ queryKey: key }),
  });
}

/** GET /ops/api/promotions/drops: red envelope drops attached to promotions (scheduled, dropped, cancelled, failed). */
export const useOpsPromotionDrops = () => useQuery(queryOptions({ queryKey: [...key, 'drops'], queryFn: ({ signal }) => opsCall(opsPromotionCalls.drops, { signal }) }));
/** GET /ops/api/promotions/owed: rewards whose reverted conversion left a bonus owed (migration 062). */
export const useOpsOwedRewards = (pageNo: number, pageSize: number) => useQuery(queryOptions({
  queryKey: [...key, 'owed', pageNo, pageSize],
  queryFn: ({ signal }) => opsCall(opsPromotionCalls.owed, { query: { pageNo, pageSize }, signal }),
  placeholderData: keepPreviousData,
}));

export function useScheduleDrop() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (i: { promotionId: string; body: z.infer<typeof ZOpsEnvelopeDropBody> }) => opsCall(opsPromotionCalls.scheduleDrop, { params: { id: Number(i.promotionId) }, body: i.body }),
    onSettled: () => qc.invalidateQueries({ queryKey: [...key, 'drops'] }),
  });
}
export function useCancelDrop() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => opsCall(opsPromotionCalls.cancelDrop, { params: { id: Number(id) } }),
    onSettled: () => qc.invalidateQueries({ queryKey: [...key, 'drops'] }),
  });
}
