import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { redEnvelopeCalls, type TOpenEnvelope } from '@portal/contracts/api/red-envelopes';
import { ApiError, call } from '../../../lib/api';
import { useRealtimeClient } from '../../../realtime/realtime-context';
import { useSessionToken } from '../../../lib/session';

export const ENVELOPES_KEY = ['envelopes'] as const;
const openKey = (token: string | null) => [...ENVELOPES_KEY, token, 'open'] as const;

/** GET /wps/envelopes/open: what this player can still grab (a page loaded after a drop shows these). */
export function openEnvelopesQuery(token: string | null) {
  return queryOptions({ queryKey: openKey(token), queryFn: ({ signal }) => call(redEnvelopeCalls.open, { query: {}, signal }), enabled: token !== null });
}
export const useOpenEnvelopes = (enabled: boolean) => {
  const token = useSessionToken();
  return useQuery({ ...openEnvelopesQuery(token), enabled: enabled && token !== null });
};

/** The open list after a live event: a new drop goes first; a closed or grabbed envelope leaves. */
export function withEnvelope(list: readonly TOpenEnvelope[], e: TOpenEnvelope): TOpenEnvelope[] {
  return [e, ...list.filter((x) => x.envelopeId !== e.envelopeId)];
}
export function withoutEnvelope(list: readonly TOpenEnvelope[], id: string): TOpenEnvelope[] {
  return list.filter((x) => x.envelopeId !== id);
}
/** The open list after `envelope.left`: the count of that envelope; one with no share left leaves. */
export function withLeft(list: readonly TOpenEnvelope[], id: string, left: number): TOpenEnvelope[] {
  if (left <= 0) return withoutEnvelope(list, id);
  return list.map((x) => (x.envelopeId === id ? { ...x, left } : x));
}
export function useUpdateOpenEnvelopes() {
  const qc = useQueryClient();
  const token = useSessionToken();
  return (fn: (list: TOpenEnvelope[]) => TOpenEnvelope[]) =>
    qc.setQueryData<{ list: TOpenEnvelope[] }>(openKey(token), (d) => ({ list: fn(d?.list ?? []) }));
}

/**
 * Codes of a socket grab that the HTTP call answers better: a session the page must end (the HTTP
 * client signs out on 401), or a failure where nothing was paid (the grab is idempotent per player).
 */
const ASK_OVER_HTTP = new Set(['UNAUTHORIZED', 'INTERNAL', 'TOO_MANY_REQUESTS']);

/**
 * A grab over the page's socket (`envelope:grab`: when a drop reaches every open page at once, no HTTP
 * request per grab); POST /wps/envelopes/:id/grab when the socket is not connected or did not answer.
 */
export function useGrabEnvelope() {
  const qc = useQueryClient();
  const realtime = useRealtimeClient();
  return useMutation({
    mutationFn: async (id: string) => {
      const reply = realtime ? await realtime.grabEnvelope(id) : null;
      if (reply?.success) return reply.value;
      if (reply && !ASK_OVER_HTTP.has(reply.code)) {
        // A socket answer has no HTTP status; the UI reads the code.
        throw new ApiError(reply.code, reply.message, null, [], reply.value);
      }
      return call(redEnvelopeCalls.grab, { params: { id }, body: {} });
    },
    onSettled: () => qc.invalidateQueries({ queryKey: [...ENVELOPES_KEY] }),
  });
}

/** GET /wps/envelopes/history: the envelopes this player grabbed, newest first. */
export function useEnvelopeHistory(pageNo: number) {
  const token = useSessionToken();
  return useQuery({
    queryKey: [...ENVELOPES_KEY, token, 'history', pageNo],
    queryFn: ({ signal }) => call(redEnvelopeCalls.history, { query: { pageNo, pageSize: 10 }, signal }),
    enabled: token !== null,
  });
}
