import { useMutation, useQueryClient } from '@tanstack/react-query';
import { chatCalls, type TLaunchChatValue } from '@portal/contracts/api/chat';
import { call } from '../../../lib/api';
import { mergeMessages } from '../lib/merge-messages';
import { applyChat, chatRoomKey } from './chat-desk';

/** The chat room's commands: send, read, older messages (each written into the cached room). */
export function useSendChat(token: string | null) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: string) => call(chatCalls.send, { body: { body } }),
    onSuccess: (v) => applyChat(qc, token, v.chat, [v.message]),
  });
}

export function useReadChat(token: string | null) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => call(chatCalls.read, { body: {} }),
    onSuccess: (chat) => applyChat(qc, token, chat),
  });
}

/** Older messages, a page before the first one shown (merged into the room). */
export function useOlderChat(token: string | null) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (beforeId: string) => call(chatCalls.history, { query: { beforeId, limit: 50 } }),
    onSuccess: (page) =>
      qc.setQueryData<TLaunchChatValue>(chatRoomKey(token), (room) => (room ? { ...room, messages: mergeMessages(room.messages, page.list), hasMore: page.hasMore } : room)),
  });
}
