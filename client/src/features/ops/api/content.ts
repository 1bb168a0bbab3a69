import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { opsContentCalls, type ZContentImage, type ZOpsAnnouncementBody, type ZOpsArticleBody, type ZOpsBannerBody, type ZOpsCampaignBody, type ZOpsHelpBody } from '@portal/contracts/api/ops-content';
import { ApiError, CLIENT_ERROR_CODE } from '../../../lib/api';
import { getMerchantCode } from '../../../lib/merchant';
import { opsCall } from '../lib/ops-api';
import { clearOpsToken, getOpsToken } from '../lib/ops-session';
import { OPS_KEY } from './ops-keys';

const contentKey = [...OPS_KEY, 'content'] as const;
const c = opsContentCalls;

export const useOpsAnnouncements = () => useQuery(queryOptions({ queryKey: [...contentKey, 'announcements'], queryFn: ({ signal }) => opsCall(c.announcements, { query: {}, signal }) }));
export const useOpsBanners = () => useQuery(queryOptions({ queryKey: [...contentKey, 'banners'], queryFn: ({ signal }) => opsCall(c.banners, { query: {}, signal }) }));
export const useOpsHelp = () => useQuery(queryOptions({ queryKey: [...contentKey, 'help'], queryFn: ({ signal }) => opsCall(c.help, { query: {}, signal }) }));
export const useOpsArticles = () => useQuery(queryOptions({ queryKey: [...contentKey, 'articles'], queryFn: ({ signal }) => opsCall(c.articles, { query: {}, signal }) }));
export const useOpsCampaigns = (pageNo: number) =>
  useQuery(queryOptions({ queryKey: [...contentKey, 'campaigns', pageNo], queryFn: ({ signal }) => opsCall(c.campaigns, { query: { pageNo, pageSize: 20 }, signal }), placeholderData: keepPreviousData }));

function useContentMutation<I, O>(fn: (input: I) => Promise<O>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => qc.invalidateQueries({ queryKey: contentKey }) });
}

type AnnouncementInput = z.input<typeof ZOpsAnnouncementBody>;
/** Create (no id) or replace an announcement; `remove` deletes it. */
export const useSaveAnnouncement = () => useContentMutation((i: { id: number | null; body: AnnouncementInput }) =>
  (i.id === null ? opsCall(c.createAnnouncement, { body: i.body }) : opsCall(c.updateAnnouncement, { params: { id: i.id }, body: i.body })));
export const useDeleteAnnouncement = () => useContentMutation((id: number) => opsCall(c.deleteAnnouncement, { params: { id } }));

export const useSaveBanner = () => useContentMutation((i: { id: number | null; body: z.input<typeof ZOpsBannerBody> }) =>
  (i.id === null ? opsCall(c.createBanner, { body: i.body }) : opsCall(c.updateBanner, { params: { id: i.id }, body: i.body })));
export const useDeleteBanner = () => useContentMutation((id: number) => opsCall(c.deleteBanner, { params: { id } }));

export const useSaveHelp = () => useContentMutation((body: z.input<typeof ZOpsHelpBody>) => opsCall(c.saveHelp, { body }));
export const useDeleteHelp = () => useContentMutation((anchor: string) => opsCall(c.deleteHelp, { params: { anchor } }));

export const useSaveArticle = () => useContentMutation((i: { id: number | null; body: z.input<typeof ZOpsArticleBody> }) =>
  (i.id === null ? opsCall(c.createArticle, { body: i.body }) : opsCall(c.updateArticle, { params: { id: i.id }, body: i.body })));
export const useDeleteArticle = () => useContentMutation((id: number) => opsCall(c.deleteArticle, { params: { id } }));

export const useSendCampaign = () => useContentMutation((body: z.input<typeof ZOpsCampaignBody>) => opsCall(c.sendCampaign, { body }));

/** POST /ops/api/content/images: the file's bytes as the body; the server checks them (png, jpg, webp; 2 MB). */
export async function uploadContentImage(file: Blob): Promise<z.infer<typeof ZContentImage>> {
  const headers: Record<string, string> = { 'Content-Type': 'application/octet-stream' };
  const token = getOpsToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const merchant = getMerchantCode();
  if (merchant) headers['X-Merchant-Code'] = merchant;
  let res: Response;
  try {
    res = await fetch(c.uploadImagePath, { method: 'POST', headers, body: file, credentials: 'same-origin' });
  } catch (e) {
    throw new ApiError(CLIENT_ERROR_CODE.NETWORK, e instanceof Error ? e.message : 'Network error');
  }
  let json: { success?: boolean; code?: string; message?: string; value?: z.infer<typeof ZContentImage> } = {};
  try {
    json = (await res.json()) as typeof json;
  } catch {
    // not an envelope
  }
  if (res.status === 401) clearOpsToken();
  if (!res.ok || !json.success || !json.value) throw new ApiError(json.code ?? CLIENT_ERROR_CODE.BAD_RESPONSE, json.message ?? `Upload failed (${res.status})`, res.status);
  return json.value;
}

export const useUploadImage = () => useMutation({ mutationFn: uploadContentImage });
