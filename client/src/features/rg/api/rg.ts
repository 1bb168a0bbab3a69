import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { rgCalls, rgFamilyCall, type ZRgExcludeBody, type ZRgFamilyRequestBody, type ZRgLimitBody, type ZRgSessionBody } from '@portal/contracts/api/rg';
import { call, isApiError } from '../../../lib/api';
import { setBreakNote } from '../../../lib/break-note';
import { clearSession, useSessionToken } from '../../../lib/session';

const key = (token: string | null) => ['rg', token] as const;

/** GET /wps/v2/rg/state: limits with what is used, the exclusion, reality check and session figures. */
export function rgStateQuery(token: string | null) {
  return queryOptions({ queryKey: [...key(token), 'state'] as const, queryFn: ({ signal }) => call(rgCalls.state, { query: {}, signal }), enabled: token !== null });
}
export const useRgState = () => useQuery(rgStateQuery(useSessionToken()));
export const useRgEvents = () => {
  const token = useSessionToken();
  return useQuery({ queryKey: [...key(token), 'events'] as const, queryFn: ({ signal }) => call(rgCalls.events, { query: { pageNo: 1, pageSize: 20 }, signal }), enabled: token !== null });
};

function useRgMutation<T, R>(fn: (b: T) => Promise<R>) {
  const qc = useQueryClient();
  const token = useSessionToken();
  // The portal's query client also reads again a list whose first read was still on its way (lib/query-client).
  return useMutation({ mutationFn: fn, onSettled: () => qc.invalidateQueries({ queryKey: key(token) }) });
}
export const useSetLimit = () => useRgMutation((b: z.infer<typeof ZRgLimitBody>) => call(rgCalls.setLimit, { body: b }));
export const useConfirmLimit = () => useRgMutation((b: { kind: z.infer<typeof ZRgLimitBody>['kind']; period: z.infer<typeof ZRgLimitBody>['period'] }) => call(rgCalls.confirmLimit, { body: b }));
/**
 * Starting a break ends this session on the server (every session, with system.logout), and that sign-out
 * may reach the page before the answer does. So the break is noted (lib/break-note) as it is asked for,
 * with its end once the answer gives it, and dropped only when the server refuses it. Once it succeeds the
 * page drops the ended session itself, and the RG reads are not read again with it (they failed 401).
 */
export const useExclude = () => {
  const qc = useQueryClient();
  const token = useSessionToken();
  return useMutation({
    mutationFn: (b: z.infer<typeof ZRgExcludeBody>) => call(rgCalls.exclude, { body: b }),
    onMutate: (b) => setBreakNote({ kind: b.kind, endsAt: null }),
    onSuccess: (x) => {
      setBreakNote({ kind: x.kind === 'self' ? 'self' : 'cooling', endsAt: x.endsAt });
      // The server has ended the session: drop it here as system.logout does (the event may not come
      // before the server closes this page's socket).
      clearSession();
      void qc.invalidateQueries();
    },
    onError: (err) => {
      if (isApiError(err)) setBreakNote(null);
      void qc.invalidateQueries({ queryKey: key(token) });
    },
  });
};
export const useSessionSettings = () => useRgMutation((b: z.infer<typeof ZRgSessionBody>) => call(rgCalls.session, { body: b }));

/** POST /wps/v2/rg/family-requests: a relative asks for a player's exclusion (no session needed). */
export const useFamilyRequest = () => useMutation({ mutationFn: (b: z.infer<typeof ZRgFamilyRequestBody>) => call(rgFamilyCall, { body: b }) });
