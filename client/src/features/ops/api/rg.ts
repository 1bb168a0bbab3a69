import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { opsRgListCalls, type ZRgFamilyDecideBody, type ZRgFamilyRequestBody } from '@portal/contracts/api/rg';
import { opsCall } from '../lib/ops-api';
import { OPS_KEY, OPS_POLL_MS } from './ops-keys';

const rgKey = [...OPS_KEY, 'rg'] as const;
export type FamilyStatus = 'pending' | 'approved' | 'rejected';

/** GET /ops/api/rg/restricted: the current restricted-persons list (size per category, last import and its re-check). */
export function useRestrictedSummary() {
  return useQuery(queryOptions({ queryKey: [...rgKey, 'restricted'], queryFn: ({ signal }) => opsCall(opsRgListCalls.restrictedSummary, { query: {}, signal }) }));
}
/** GET /ops/api/rg/restricted/matches: members the re-check found on the list (each excluded). */
export function useRestrictedMatches(pageNo: number) {
  return useQuery(queryOptions({
    queryKey: [...rgKey, 'matches', pageNo],
    queryFn: ({ signal }) => opsCall(opsRgListCalls.restrictedMatches, { query: { pageNo, pageSize: 20 }, signal }),
    placeholderData: keepPreviousData,
  }));
}
/** POST /ops/api/rg/restricted/import: replace the list with a CSV file's rows. */
export function useImportRestricted() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (csv: string) => opsCall(opsRgListCalls.restrictedImport, { body: { csv } }), onSettled: () => qc.invalidateQueries({ queryKey: rgKey }) });
}
/** GET /ops/api/rg/family-requests. */
export function useFamilyRequests(status: FamilyStatus | '', pageNo: number) {
  return useQuery(queryOptions({
    queryKey: [...rgKey, 'family', status, pageNo],
    queryFn: ({ signal }) => opsCall(opsRgListCalls.familyRequests, { query: { ...(status ? { status } : {}), pageNo, pageSize: 20 }, signal }),
    placeholderData: keepPreviousData,
    // A queue: a request filed from the footer shows without a reload.
    refetchInterval: OPS_POLL_MS,
  }));
}
/** POST /ops/api/rg/family-requests: support files a caller's request. */
export function useCreateFamilyRequest() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (b: z.infer<typeof ZRgFamilyRequestBody>) => opsCall(opsRgListCalls.createFamilyRequest, { body: b }), onSettled: () => qc.invalidateQueries({ queryKey: rgKey }) });
}
/** POST /ops/api/rg/family-requests/:id/decide (risk). */
export function useDecideFamilyRequest() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (i: { id: number; body: z.infer<typeof ZRgFamilyDecideBody> }) => opsCall(opsRgListCalls.decideFamilyRequest, { params: { id: i.id }, body: i.body }),
    onSettled: () => qc.invalidateQueries({ queryKey: rgKey }),
  });
}
