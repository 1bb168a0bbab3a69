import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { opsChatCalls, type ChatStatus } from '@portal/contracts/api/chat';
import { opsCall } from '../lib/ops-api';
import { OPS_KEY, OPS_POLL_MS } from './ops-keys';

export type { TOpsChat, TOpsChatMessage, TOpsChatThread } from '@portal/contracts/api/chat';

/** Every live chat query of the console: `chat.changed` on the operators' socket marks them stale. */
export const OPS_CHATS_KEY = [...OPS_KEY, 'chats'] as const;

/** GET /ops/api/chats: open first, unread first, newest activity first. Live by the socket; polled as a fallback. */
export const opsChatsQuery = (q: { status?: ChatStatus; pageNo: number; pageSize: number }) =>
  queryOptions({
    queryKey: [...OPS_CHATS_KEY, 'list', q],
    queryFn: ({ signal }) => opsCall(opsChatCalls.list, { query: q, signal }),
    refetchInterval: OPS_POLL_MS * 6,
    placeholderData: keepPreviousData,
  });
export function useOpsChats(q: { status?: ChatStatus; pageNo: number; pageSize: number }) {
  return useQuery(opsChatsQuery(q));
}

/** One chat and its last 50 messages, oldest first. */
export function useOpsChatThread(id: string | null) {
  return useQuery({
    queryKey: [...OPS_CHATS_KEY, 'thread', id],
    queryFn: ({ signal }) => opsCall(opsChatCalls.messages, { params: { id: id! }, query: {}, signal }),
    enabled: id !== null,
    refetchInterval: OPS_POLL_MS * 6,
  });
}

function useChatMutation<I>(fn: (input: I) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => qc.invalidateQueries({ queryKey: OPS_CHATS_KEY }) });
}

export const useReplyChat = () => useChatMutation(({ id, body }: { id: string; body: string }) => opsCall(opsChatCalls.reply, { params: { id }, body: { body } }));
export const useReadOpsChat = () => useChatMutation((id: string) => opsCall(opsChatCalls.read, { params: { id }, body: {} }));
export const useCloseChat = () => useChatMutation((id: string) => opsCall(opsChatCalls.close, { params: { id }, body: {} }));
