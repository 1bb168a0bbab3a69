import { queryOptions, useQuery } from '@tanstack/react-query';
import { opsCalls } from '@portal/contracts/api/ops';
import { fetchOpsBlob } from '../lib/ops-api';
import { OPS_KEY } from './ops-keys';

/** GET /ops/api/withdrawals/:id/proofs/:n: the image bytes (with the operator token), fetched once. */
export const withdrawalProofQuery = (id: string, n: number) =>
  queryOptions({
    queryKey: [...OPS_KEY, 'proof', id, n],
    queryFn: ({ signal }) => fetchOpsBlob(opsCalls.withdrawalProofPath, { id, n }, signal),
    staleTime: Infinity,
    gcTime: 60_000,
  });

export function useWithdrawalProof(id: string, n: number) {
  return useQuery(withdrawalProofQuery(id, n));
}
