import { z } from 'zod';
import { defineCall, relayPath } from './envelope.ts';

// Not the cashier's page helpers: events.ts imports this file, and cashier.ts imports events.ts.
const ZPageQuery = z
  .object({ pageNo: z.coerce.number().int().min(1).default(1), pageSize: z.coerce.number().int().min(1).max(100).default(20) })
  .strict();
const zPage = <T extends z.ZodType>(item: T) => z.object({ list: z.array(item), pageNo: z.number().int(), pageSize: z.number().int(), total: z.number().int() });

/**
 * Live chat (spec: the "chat room" modal and the relay calls CBS_modelList and CBS_launchChat): a
 * signed-in player and the merchant's operators (roles with `chat.answer`) talk in one chat per
 * member. The chat is open or closed; a closed chat opens again when the player writes. Messages
 * arrive live: `chat.posted` / `chat.updated` to the member (`user:{id}`), `chat.changed` to the
 * merchant's operators (`ops:{code}`, a socket the console opens with its operator token).
 * Module flag LIVECHAT3 switches it per merchant (MODULE_DISABLED otherwise).
 */
export const CHAT_LIMITS = {
  /** A message's text, in characters as a person counts them (code points), after trimming. */
  bodyMaxChars: 1000,
  /** Messages answered by CBS_launchChat and by one page of older ones. */
  pageSize: 50,
  /** A player's messages per window before 429 TOO_MANY_REQUESTS. */
  ratePerWindow: 10,
  rateWindowMs: 10_000,
  /** An operator who can answer and used the console this recently makes the desk `online`. */
  onlineWindowMs: 5 * 60_000,
} as const;

/** The only desk: the merchant's customer service. */
export const CHAT_DESKS = ['support'] as const;
export { LIVE_CHAT_URL } from '../domain/constants.ts';

/** Characters as a person counts them (code points), so an emoji is one. */
export const chatChars = (s: string) => [...s].length;

export const ZChatText = z
  .string()
  .trim()
  .min(1)
  .refine((s) => chatChars(s) <= CHAT_LIMITS.bodyMaxChars, { message: `at most ${CHAT_LIMITS.bodyMaxChars} characters` });
export const ZChatSendBody = z.object({ body: ZChatText }).strict();

export const CHAT_STATUSES = ['open', 'closed'] as const;
export const CHAT_SENDERS = ['member', 'operator'] as const;
export type ChatStatus = (typeof CHAT_STATUSES)[number];

/** One message as the player sees it (operators are "customer service", never named). */
export const ZChatMessage = z.object({
  id: z.string(),
  sender: z.enum(CHAT_SENDERS),
  body: z.string(),
  at: z.string(),
});
export type TChatMessage = z.infer<typeof ZChatMessage>;

export const ZChatDesk = z.object({
  deskId: z.enum(CHAT_DESKS),
  /** An operator who can answer used the console in the last 5 minutes. */
  online: z.boolean(),
  /** When the desk is staffed, language-neutral (`24/7`); the client frames it in the player's language. */
  hours: z.string(),
  /** Messages from customer service the player has not read yet (0 without a chat). */
  unread: z.number().int().nonnegative(),
});
export type TChatDesk = z.infer<typeof ZChatDesk>;

export const ZChat = z.object({
  chatId: z.string(),
  status: z.enum(CHAT_STATUSES),
  /** Messages from customer service the player has not read. */
  unread: z.number().int().nonnegative(),
  lastMessageAt: z.string().nullable(),
});
export type TChat = z.infer<typeof ZChat>;

/** Oldest first; `hasMore`: older messages exist (read them with `beforeId` = the first id). */
export const ZChatMessages = z.object({ list: z.array(ZChatMessage), hasMore: z.boolean() });
export const ZLaunchChatBody = z.object({ deskId: z.enum(CHAT_DESKS).default('support') }).strict();
export const ZLaunchChatValue = z.object({ chat: ZChat, desk: ZChatDesk, messages: z.array(ZChatMessage), hasMore: z.boolean() });
export type TLaunchChatValue = z.infer<typeof ZLaunchChatValue>;
/** Page by id: messages older than `beforeId` (without it, the newest). */
export const ZChatHistoryQuery = z
  .object({ beforeId: z.string().regex(/^\d{1,15}$/).optional(), limit: z.coerce.number().int().min(1).max(CHAT_LIMITS.pageSize).default(CHAT_LIMITS.pageSize) })
  .strict();

export const chatCalls = {
  /** The desks a player can chat with: one, the merchant's customer service. */
  modelList: defineCall({ method: 'GET', path: relayPath('CBS_modelList'), auth: true, query: z.object({}).strict(), value: z.object({ list: z.array(ZChatDesk) }) }),
  /** Opens the member's chat (or answers the one it has) with its last 50 messages. */
  launchChat: defineCall({ method: 'POST', path: relayPath('CBS_launchChat'), auth: true, body: ZLaunchChatBody, value: ZLaunchChatValue }),
  /** A message to customer service: a closed chat opens again. At most 10 in 10 s (429). */
  send: defineCall({ method: 'POST', path: '/wps/chat/messages', auth: true, body: ZChatSendBody, value: z.object({ chat: ZChat, message: ZChatMessage }) }),
  history: defineCall({ method: 'GET', path: '/wps/chat/messages', auth: true, query: ZChatHistoryQuery, value: ZChatMessages }),
  /** Everything customer service wrote is read. */
  read: defineCall({ method: 'POST', path: '/wps/chat/read', auth: true, body: z.object({}).strict(), value: ZChat }),
};

// ---- back office ----

export const ZOpsChatMessage = ZChatMessage.extend({ operator: z.string().nullable() });
export type TOpsChatMessage = z.infer<typeof ZOpsChatMessage>;
export const ZOpsChat = z.object({
  id: z.string(),
  memberId: z.number().int(),
  account: z.string(),
  status: z.enum(CHAT_STATUSES),
  /** The operator who answered first (took the chat), if any. */
  operator: z.string().nullable(),
  /** Player messages no operator has read. */
  unreadOps: z.number().int().nonnegative(),
  /** Operator messages the player has not read. */
  unreadMember: z.number().int().nonnegative(),
  lastMessageAt: z.string().nullable(),
  /** The last message, cut to 120 characters. */
  lastBody: z.string().nullable(),
  lastSender: z.enum(CHAT_SENDERS).nullable(),
});
export type TOpsChat = z.infer<typeof ZOpsChat>;
export const ZOpsChatsQuery = ZPageQuery.extend({ status: z.enum(CHAT_STATUSES).optional() }).strict();
export const ZOpsChatMessagesQuery = z.object({ beforeId: z.string().regex(/^\d{1,15}$/).optional() }).strict();
export const ZOpsChatThread = z.object({ chat: ZOpsChat, list: z.array(ZOpsChatMessage), hasMore: z.boolean() });
export type TOpsChatThread = z.infer<typeof ZOpsChatThread>;

export const opsChatCalls = {
  /** Open chats first, then those with unread player messages, newest activity first. */
  list: defineCall({ method: 'GET', path: '/ops/api/chats', auth: true, query: ZOpsChatsQuery, value: zPage(ZOpsChat) }),
  /** One chat and its last 50 messages (or 50 before `beforeId`), oldest first. */
  messages: defineCall({ method: 'GET', path: '/ops/api/chats/:id/messages', auth: true, query: ZOpsChatMessagesQuery, value: ZOpsChatThread }),
  /** A reply; the first operator to answer takes the chat. A closed chat is INVALID_STATE (409). */
  reply: defineCall({ method: 'POST', path: '/ops/api/chats/:id/messages', auth: true, body: ZChatSendBody, value: z.object({ chat: ZOpsChat, message: ZOpsChatMessage }) }),
  /** The player's messages are read (by the operators). */
  read: defineCall({ method: 'POST', path: '/ops/api/chats/:id/read', auth: true, body: z.object({}).strict(), value: ZOpsChat }),
  /** Closed; it opens again when the player writes. Closing a closed chat is INVALID_STATE (409). */
  close: defineCall({ method: 'POST', path: '/ops/api/chats/:id/close', auth: true, body: z.object({}).strict(), value: ZOpsChat }),
};
