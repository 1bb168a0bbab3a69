import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { walletCalls } from '@portal/contracts/api/wallet';
import type { MessageCategory } from '@portal/contracts/events/events';
import { call } from '../../../lib/api';
import { QUERY_KEYS } from '../../../lib/query-keys';

/** GET /wps/v2/messages: newest first (one tab, or all), with the unread counts. */
export function getMessages(pageNo: number, pageSize: number, category: MessageCategory | null, signal?: AbortSignal) {
  return call(walletCalls.messages, { query: { pageNo, pageSize, ...(category ? { category } : {}) }, signal });
}

export const messagesQueryOptions = (pageNo: number, category: MessageCategory | null = null, pageSize = 10) =>
  queryOptions({
    queryKey: [...QUERY_KEYS.messages, category ?? 'all', pageNo, pageSize] as const,
    queryFn: ({ signal }) => getMessages(pageNo, pageSize, category, signal),
    placeholderData: keepPreviousData,
  });

export function useMessages(pageNo: number, category: MessageCategory | null = null, pageSize = 10) {
  return useQuery(messagesQueryOptions(pageNo, category, pageSize));
}
