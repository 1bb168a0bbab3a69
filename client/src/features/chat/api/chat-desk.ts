/** The chat room's queries and the writes of the chat events into them (the side bar's badge loads this, the room too). */
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { chatCalls, type TChat, type TChatDesk, type TChatMessage, type TLaunchChatValue } from '@portal/contracts/api/chat';
import { call } from '../../../lib/api';
import { mergeMessages } from '../lib/merge-messages';

export const CHAT_KEY = ['chat'] as const;
/** CBS_modelList: the desk (online, hours) and the player's unread count, per session token. */
export const chatDesksKey = (token: string | null) => [...CHAT_KEY, 'desks', token] as const;
/** CBS_launchChat: the chat room's state and its messages (oldest first), per session token. */
export const chatRoomKey = (token: string | null) => [...CHAT_KEY, 'room', token] as const;

export const chatDesksQuery = (token: string | null) =>
  queryOptions({
    queryKey: chatDesksKey(token),
    queryFn: ({ signal }) => call(chatCalls.modelList, { query: {}, signal }),
    // `online` follows the operators' use of the console: re-read now and then while a page is open.
    staleTime: 60_000,
    refetchInterval: 120_000,
  });

export function useChatDesk(token: string | null, enabled: boolean): TChatDesk | undefined {
  const q = useQuery({ ...chatDesksQuery(token), enabled: enabled && token !== null });
  return q.data?.list[0];
}

export const chatRoomQuery = (token: string | null) =>
  queryOptions({
    queryKey: chatRoomKey(token),
    queryFn: ({ signal }) => call(chatCalls.launchChat, { body: { deskId: 'support' }, signal }),
    // Kept current by the events (chat.posted, chat.updated) and by what this page sends.
    staleTime: Infinity,
    gcTime: 5 * 60_000,
  });

export function useChatRoom(token: string | null) {
  return useQuery({ ...chatRoomQuery(token), enabled: token !== null });
}

/** The chat's state and new messages into the cached room, and its unread count into the desk. */
export function applyChat(qc: QueryClient, token: string | null, chat: TChat, messages: readonly TChatMessage[] = []) {
  qc.setQueryData<TLaunchChatValue>(chatRoomKey(token), (room) =>
    room ? { ...room, chat: newer(room.chat, chat), messages: mergeMessages(room.messages, messages) } : room);
  qc.setQueryData<{ list: TChatDesk[] }>(chatDesksKey(token), (d) => (d ? { list: d.list.map((x) => ({ ...x, unread: chat.unread })) } : d));
}

/** An event may arrive after the answer of a later call: the state with the later last message wins. */
function newer(a: TChat, b: TChat): TChat {
  if (a.lastMessageAt && b.lastMessageAt && a.lastMessageAt > b.lastMessageAt) return { ...a, unread: b.unread };
  return b;
}

