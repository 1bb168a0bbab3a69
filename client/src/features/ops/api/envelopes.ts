import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { opsRedEnvelopeCalls, type ZDropEnvelopeBody } from '@portal/contracts/api/red-envelopes';
import { opsCall } from '../lib/ops-api';
import { OPS_KEY, OPS_POLL_MS } from './ops-keys';

const envelopesKey = [...OPS_KEY, 'envelopes'] as const;

/** GET /ops/api/envelopes: newest first, with what was grabbed and returned (refreshed while open ones fill). */
export function useOpsEnvelopes(pageNo: number, enabled = true) {
  return useQuery(queryOptions({
    queryKey: [...envelopesKey, pageNo],
    queryFn: ({ signal }) => opsCall(opsRedEnvelopeCalls.list, { query: { pageNo, pageSize: 20 }, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: OPS_POLL_MS,
    enabled,
  }));
}

/** POST /ops/api/envelopes: drop an envelope (house -> escrow; the same request id drops it once). */
export function useDropEnvelope() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (b: z.input<typeof ZDropEnvelopeBody>) => opsCall(opsRedEnvelopeCalls.drop, { body: b }),
    onSettled: () => qc.invalidateQueries({ queryKey: envelopesKey }),
  });
}
