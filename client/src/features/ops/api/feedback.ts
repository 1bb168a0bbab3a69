import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { opsFeedbackCalls } from '@portal/contracts/api/feedback';
import { fetchOpsBlob, opsCall } from '../lib/ops-api';
import { OPS_KEY, OPS_POLL_MS } from './ops-keys';

export type { TOpsFeedback } from '@portal/contracts/api/feedback';

/** GET /ops/api/feedback: open first, newest first; `status` filters. */
export const opsFeedbackQuery = (q: { status?: 'open' | 'answered'; pageNo: number; pageSize: number }) =>
  queryOptions({
    queryKey: [...OPS_KEY, 'feedback', q],
    queryFn: () => opsCall(opsFeedbackCalls.list, { query: q }),
    placeholderData: keepPreviousData,
    // A queue: new feedback shows without a reload, as the cashier queues do.
    refetchInterval: OPS_POLL_MS,
  });
export function useOpsFeedback(q: { status?: 'open' | 'answered'; pageNo: number; pageSize: number }) {
  return useQuery(opsFeedbackQuery(q));
}

/** POST /ops/api/feedback/:id/answer, once (INVALID_STATE when another operator answered first). */
export function useAnswerFeedback() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, answer }: { id: string; answer: string }) => opsCall(opsFeedbackCalls.answer, { params: { id }, body: { answer } }),
    onSettled: () => qc.invalidateQueries({ queryKey: [...OPS_KEY, 'feedback'] }),
  });
}

/** One feedback image's bytes, with the operator token. */
export function useOpsFeedbackImage(id: string, n: number) {
  return useQuery({
    queryKey: [...OPS_KEY, 'feedback-image', id, n],
    queryFn: ({ signal }) => fetchOpsBlob(opsFeedbackCalls.image.path, { id, n }, signal),
    staleTime: Infinity,
    gcTime: 60_000,
  });
}
