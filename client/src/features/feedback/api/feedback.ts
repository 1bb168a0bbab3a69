import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ErrorCode } from '@portal/contracts/api/errors';
import { FEEDBACK_LIMITS, FEEDBACK_PATHS, ZFeedback, feedbackCalls, feedbackImagePath, type TFeedback } from '@portal/contracts/api/feedback';
import { schemaOf } from '../../../lib/lazy-schema';
import { ApiError, CLIENT_ERROR_CODE, call } from '../../../lib/api';
import { getMerchantCode } from '../../../lib/merchant';
import { clearSession, getSessionToken } from '../../../lib/session';

export const FEEDBACK_KEY = ['feedback'] as const;

function headers(): Record<string, string> {
  const h: Record<string, string> = { Accept: 'application/json' };
  const token = getSessionToken();
  if (token) h.Authorization = `Bearer ${token}`;
  const merchant = getMerchantCode();
  if (merchant) h['X-Merchant-Code'] = merchant;
  return h;
}

async function envelopeOf(res: Response): Promise<unknown> {
  const json = (await res.json().catch(() => null)) as { success?: boolean; code?: string; message?: string; value?: unknown; details?: Array<{ path: string; message: string }> } | null;
  if (!json || typeof json.success !== 'boolean') throw new ApiError(CLIENT_ERROR_CODE.BAD_RESPONSE, `Unexpected response (${res.status})`, res.status);
  if (!json.success || !res.ok) {
    const code = json.code ?? ErrorCode.INTERNAL;
    if (code === ErrorCode.UNAUTHORIZED) clearSession();
    throw new ApiError(code, json.message ?? '', res.status, json.details ?? [], json.value);
  }
  return json.value;
}

/**
 * PUT /wps/feedback as multipart/form-data (`content`, up to 3 files `images`): the JSON `call`
 * does not send files. The server judges the images by their bytes; the page only pre-checks.
 */
export async function sendFeedback(input: { content: string; images: File[] }, signal?: AbortSignal): Promise<TFeedback> {
  const form = new FormData();
  form.append('content', input.content);
  for (const f of input.images) form.append(FEEDBACK_LIMITS.field, f, f.name);
  let res: Response;
  try {
    res = await fetch(FEEDBACK_PATHS.send, { method: 'PUT', headers: headers(), body: form, signal, credentials: 'same-origin' });
  } catch (e) {
    throw new ApiError(CLIENT_ERROR_CODE.NETWORK, e instanceof Error ? e.message : 'Network error');
  }
  const value = (await schemaOf(ZFeedback)).safeParse(await envelopeOf(res));
  if (!value.success) throw new ApiError(CLIENT_ERROR_CODE.BAD_RESPONSE, 'Feedback response does not match its contract', res.status);
  return value.data;
}

export function useSendFeedback() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (input: { content: string; images: File[] }) => sendFeedback(input), onSuccess: () => qc.invalidateQueries({ queryKey: FEEDBACK_KEY }) });
}

export const feedbackListQuery = (pageNo: number, pageSize = 10) =>
  queryOptions({
    queryKey: [...FEEDBACK_KEY, 'list', pageNo, pageSize] as const,
    queryFn: ({ signal }) => call(feedbackCalls.list, { query: { pageNo, pageSize }, signal }),
    placeholderData: keepPreviousData,
  });
export function useFeedbackList(pageNo: number) {
  return useQuery(feedbackListQuery(pageNo));
}

/** One of the member's own images (an <img> cannot send the bearer token): fetched as a Blob. */
export function useFeedbackImage(id: string, n: number) {
  return useQuery({
    queryKey: [...FEEDBACK_KEY, 'image', id, n],
    queryFn: async ({ signal }) => {
      const res = await fetch(feedbackImagePath(id, n), { headers: headers(), signal, credentials: 'same-origin' });
      if (!res.ok) await envelopeOf(res);
      return res.blob();
    },
    staleTime: Infinity,
    gcTime: 60_000,
  });
}
