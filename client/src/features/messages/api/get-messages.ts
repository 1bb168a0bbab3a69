import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { walletCalls } from '@portal/contracts/api/wallet';
import { call } from '../../../lib/api';
import { QUERY_KEYS } from '../../../lib/query-keys';

/** GET /wps/v2/messages: newest first, with the unread count. */
export function getMessages(pageNo: number, pageSize: number, signal?: AbortSignal) {
  return call(walletCalls.messages, { query: { pageNo, pageSize }, signal });
}

export const messagesQueryOptions = (pageNo: number, pageSize = 10) =>
  queryOptions({ queryKey: [...QUERY_KEYS.messages, pageNo, pageSize] as const, queryFn: ({ signal }) => getMessages(pageNo, pageSize, signal), placeholderData: keepPreviousData });

export function useMessages(pageNo: number, pageSize = 10) {
  return useQuery(messagesQueryOptions(pageNo, pageSize));
}
