import { z } from 'zod';
import { ZWinner } from '../api/games.ts';
import type { TSocketGrabReply, TSocketGrabRequest } from '../api/red-envelopes.ts';
import { CHAT_STATUSES, ZChatMessage } from '../api/chat.ts';

/**
 * Realtime events. Names are lowercase dot facts. Every event travels in the envelope
 * `{ id, type, v, audience, seq, at, payload }`; `seq` rises by one per audience.
 */

/**
 * `user:{memberId}` or `merchant:{code}`; `cache:{code}` carries the gateway nodes' own cache
 * invalidations (`content.changed`): no socket ever joins it. `ops:{code}`: the merchant's operators
 * who answer the live chat (a socket opened with an operator token holding `chat.answer`), never a player.
 */
export const ZAudience = z.string().regex(/^(user:\d+|merchant:[A-Za-z0-9_-]{1,32}|cache:[A-Za-z0-9_-]{1,32}|ops:[A-Za-z0-9_-]{1,32})$/);
export type TAudience = z.infer<typeof ZAudience>;
export const userAudience = (memberId: number | string) => `user:${memberId}`;
export const merchantAudience = (code: string) => `merchant:${code}`;
export const cacheAudience = (code: string) => `cache:${code}`;
export const opsAudience = (code: string) => `ops:${code}`;

/** Minor units, integer. */
const ZMinor = z.number().int();

export const ZBalanceChanged = z.object({
  memberId: z.number().int(),
  currency: z.string(),
  /** Balance after the change, minor units. */
  balance: ZMinor.nonnegative(),
  /** Balance minus open holds, minor units. */
  available: ZMinor.nonnegative(),
  delta: ZMinor,
  reason: z.string(),
  transferId: z.string(),
});

export const MESSAGE_KINDS = ['deposit_credited', 'deposit_failed', 'deposit_expired', 'withdrawal_approved', 'withdrawal_rejected', 'system', 'marketing', 'feedback_answered', 'rg_family_exclusion', 'points_redeem_approved', 'points_redeem_rejected', 'promotion_reward_approved', 'promotion_reward_rejected', 'agent_application_approved', 'agent_application_rejected'] as const;
/** The message centre's tabs: each kind belongs to one. */
export const MESSAGE_CATEGORIES = ['transaction', 'system', 'marketing'] as const;
export type MessageCategory = (typeof MESSAGE_CATEGORIES)[number];
export const messageCategoryOf = (kind: (typeof MESSAGE_KINDS)[number]): MessageCategory =>
  kind === 'system' || kind === 'feedback_answered' || kind === 'rg_family_exclusion' || kind === 'agent_application_approved' || kind === 'agent_application_rejected' ? 'system' : kind === 'marketing' ? 'marketing' : 'transaction';
export const ZUnreadByCategory = z.object({ transaction: z.number().int().nonnegative(), system: z.number().int().nonnegative(), marketing: z.number().int().nonnegative() });
export const ZMessageReceived = z.object({
  messageId: z.string(),
  kind: z.enum(MESSAGE_KINDS),
  title: z.string(),
  /** Unread messages after this one arrived. */
  unreadCount: z.number().int().nonnegative(),
  /** The same, per message-centre tab. */
  unreadByCategory: ZUnreadByCategory.optional(),
});

/** Messages were marked read (on any of the member's pages): the unread counts after it, for the member's other pages. */
export const ZMessageRead = z.object({
  unreadCount: z.number().int().nonnegative(),
  unreadByCategory: ZUnreadByCategory,
});

export const ZWinnerPosted = ZWinner;

export const CONTRACT_KINDS = ['dividend', 'daily_salary', 'hour_salary', 'realtime_salary'] as const;
/** accepted: the contract is live; withdrawn: the upline took its offer back; ended: ended by the lower-rate rule or a replacement (endReason says which). */
export const CONTRACT_STATUSES = ['offered', 'accepted', 'rejected', 'withdrawn', 'terminated', 'ended'] as const;
export const ZContractEvent = z.object({
  contractId: z.string(),
  kind: z.enum(CONTRACT_KINDS),
  status: z.enum(CONTRACT_STATUSES),
  uplineId: z.number().int(),
  uplineAccount: z.string(),
  downlineId: z.number().int(),
  /** Rate in basis points (1% = 100). */
  rateBps: z.number().int().nonnegative(),
  /** Why a terminated or ended contract stopped (CONTRACT_END_REASONS of domain/agent-contracts). */
  endReason: z.string().max(64).optional(),
});

/** A settled agent payout (issue 11): to the payee and, when an agent paid, to the payer. The balance moves by balance.changed. */
export const ZContractPayout = z.object({
  payoutId: z.string(),
  contractId: z.string(),
  kind: z.enum(CONTRACT_KINDS),
  periodKey: z.string(),
  amount: ZMinor.nonnegative(),
  /** paid | nothing | unfunded | adjusted (PAYOUT_STATUSES of api/agent-payouts). */
  status: z.string().max(16),
  payeeId: z.number().int(),
  /** 0: the house paid. */
  payerId: z.number().int(),
});

export const WITHDRAWAL_STATUSES = [
  'requested', 'approved', 'rejected', 'paid', 'received', 'partially_received', 'not_received', 'auto_received', 'held',
] as const;
export const ZWithdrawalEvent = z.object({
  withdrawalId: z.string(),
  status: z.enum(WITHDRAWAL_STATUSES),
  amount: ZMinor.nonnegative(),
  receivedAmount: ZMinor.nonnegative().nullable(),
  /** When an unconfirmed paid withdrawal counts as received (ISO time), once paid. */
  autoReceiveAt: z.string().nullable(),
});

export const ZMaintenance = z.object({ systemStatus: z.union([z.literal(0), z.literal(1), z.literal(2)]), message: z.string().optional() });
/**
 * `session`: the one session that ended (the first 16 hex digits of its token's SHA-256, `sessionKeyOf`), when
 * only it did (a logout): the member's pages of other sessions stay signed in. Without it, every session ended.
 */
export const ZForcedLogout = z.object({ reason: z.enum(['logout', 'disabled', 'expired', 'elsewhere', 'excluded']), session: z.string().regex(/^[0-9a-f]{16}$/).optional() });
/** Site settings changed from the operator console: which parts (clients re-read them; caches of bootstrap calls drop them). */
export const ZSystemChanged = z.object({ parts: z.array(z.enum(['maintenance', 'blocked', 'modules', 'whitelabel', 'security', 'registration', 'games'])) });
export const ZResync = z.object({ audience: ZAudience, reason: z.string() });
/**
 * What a merchant's visitors are shown changed (server-side only, audience `cache:{code}`): every gateway
 * node drops what it kept in memory of those parts. `merchant`: the merchant row (settings, flags,
 * maintenance, domains; also a new merchant); `site`: resources and customer service; `help`: help
 * centre; `games`: games and vendors; `winners`: the winner board; `content`: banners and announcements.
 */
export const CONTENT_SCOPES = ['merchant', 'site', 'help', 'games', 'winners', 'content'] as const;
export type ContentScope = (typeof CONTENT_SCOPES)[number];
export const ZContentChanged = z.object({ scopes: z.array(z.enum(CONTENT_SCOPES)).min(1) });
/** Operator-authored content a merchant's visitors see was published or withdrawn (audience `merchant:{code}`): open pages re-read those parts. */
export const CONTENT_PARTS = ['announcements', 'banners', 'help', 'news'] as const;
export const ZContentPublished = z.object({ parts: z.array(z.enum(CONTENT_PARTS)).min(1) });

/**
 * A bonus's wagering moved (issue 14): after bets, rolled-back bets, conversion (status completed, the
 * money moves by balance.changed in the same transaction) or forfeiture. To the member.
 */
export const ZBonusProgress = z.object({
  rewardId: z.string(),
  promotionId: z.string(),
  state: z.enum(['processing', 'completed', 'forfeited']),
  amount: ZMinor.nonnegative(),
  wagerRequired: ZMinor.nonnegative(),
  wagerProgress: ZMinor.nonnegative(),
});
/** A reward of the member changed state (requested, approved, rejected, issued, claimed): the reward centre's badge. */
export const ZPromotionReward = z.object({
  rewardId: z.string(),
  promotionId: z.string(),
  state: z.enum(['applying', 'rejected', 'claimable', 'processing', 'completed', 'forfeited']),
  /** Rewards waiting for the member's claim after this change. */
  claimable: z.number().int().nonnegative(),
});

/**
 * A mission's progress moved (issue 14): after bets, rolled-back bets, deposits, sign-ins, or a claim. To
 * the member; `claimable` is the member-centre badge after the change.
 */
export const ZMissionProgress = z.object({
  missionId: z.string(),
  periodKey: z.string(),
  progress: z.number().int().nonnegative(),
  target: z.number().int().positive(),
  status: z.enum(['processing', 'claim', 'claimed']),
  claimable: z.number().int().nonnegative(),
});

/**
 * Red envelopes (issue 14). `envelope.dropped`: to `merchant:{code}` when every player may grab, else
 * to each targeted player's `user:{id}`; `envelope.grabbed`: to the player who grabbed (the money moves
 * by balance.changed); `envelope.closed`: to the same audience as the drop when it expires;
 * `envelope.left`: the shares still free, to the drop's audience (a targeted drop: the targets who have
 * not grabbed yet), throttled: at most one per envelope per 500 ms window in which someone grabbed, sent
 * after the window (job queue, so the last count of a storm is always sent).
 */
export const ZEnvelopeDropped = z.object({
  envelopeId: z.string(),
  totalAmount: ZMinor,
  count: z.number().int(),
  message: z.object({ en: z.string().nullable(), ty: z.string().nullable() }),
  droppedAt: z.string(),
  expiresAt: z.string(),
  /** Shares still free (count at the drop). */
  left: z.number().int().nonnegative(),
});
export const ZEnvelopeLeft = z.object({ envelopeId: z.string(), left: z.number().int().nonnegative() });
export const ZEnvelopeGrabbed = z.object({ envelopeId: z.string(), amount: ZMinor.nonnegative(), transferId: z.string() });
export const ZEnvelopeClosed = z.object({ envelopeId: z.string(), reason: z.enum(['expired']) });

/**
 * Points mall (issue 14), to the member. `points.changed`: the balance after earnings, rollbacks, a redeem,
 * a refund or a conversion (one per member per change or bet-stream batch). `points.redeem`: a redeem's
 * status (processing when made, then approved or rejected by an operator).
 */
export const ZPointsChanged = z.object({
  balance: z.number().int().nonnegative(),
  owed: z.number().int().nonnegative(),
  delta: z.number().int(),
  reason: z.enum(['earn', 'clawback', 'redeem', 'refund', 'convert']),
});
export const ZPointsRedeem = z.object({
  redeemId: z.string(),
  rewardId: z.string(),
  status: z.enum(['processing', 'approved', 'rejected']),
  points: z.number().int().positive(),
  amount: ZMinor.nonnegative(),
});

/**
 * Live chat (api/chat.ts). `chat.posted`: a message in the member's chat (theirs or customer
 * service's), to the member, with the chat's state after it. `chat.updated`: the chat's state changed
 * without a message (closed by an operator, read in another tab), to the member. `chat.changed`: any
 * change of a chat of the merchant (message, read, close), to its operators (`ops:{code}`); it carries
 * no text: the console reads the chat over HTTP, where each call is authorized.
 */
const ZChatState = z.object({ chatId: z.string(), status: z.enum(CHAT_STATUSES), unread: z.number().int().nonnegative(), lastMessageAt: z.string().nullable() });
export const ZChatPosted = ZChatState.extend({ message: ZChatMessage });
export const ZChatUpdated = ZChatState;
export const ZChatChanged = z.object({
  chatId: z.string(),
  memberId: z.number().int(),
  status: z.enum(CHAT_STATUSES),
  unreadOps: z.number().int().nonnegative(),
  unreadMember: z.number().int().nonnegative(),
  lastMessageAt: z.string().nullable(),
  /** What happened: a message (from whom), a read (by whom), or a close. */
  reason: z.enum(['member_message', 'operator_message', 'member_read', 'operator_read', 'closed']),
});

/** Event type -> payload schema. One vocabulary for machines, bus and sockets. */
export const EVENT_PAYLOADS = {
  'balance.changed': ZBalanceChanged,
  'message.received': ZMessageReceived,
  'message.read': ZMessageRead,
  'winner.posted': ZWinnerPosted,
  'contract.offered': ZContractEvent,
  'contract.updated': ZContractEvent,
  'contract.payout': ZContractPayout,
  'withdrawal.updated': ZWithdrawalEvent,
  'system.maintenance': ZMaintenance,
  'system.logout': ZForcedLogout,
  'system.resync': ZResync,
  'content.changed': ZContentChanged,
  'content.published': ZContentPublished,
  'system.changed': ZSystemChanged,
  'bonus.progress': ZBonusProgress,
  'promotion.reward': ZPromotionReward,
  'mission.progress': ZMissionProgress,
  'envelope.dropped': ZEnvelopeDropped,
  'envelope.grabbed': ZEnvelopeGrabbed,
  'envelope.closed': ZEnvelopeClosed,
  'envelope.left': ZEnvelopeLeft,
  'points.changed': ZPointsChanged,
  'points.redeem': ZPointsRedeem,
  'chat.posted': ZChatPosted,
  'chat.updated': ZChatUpdated,
  'chat.changed': ZChatChanged,
} as const;
export type EventType = keyof typeof EVENT_PAYLOADS;
export const EVENT_TYPES = Object.keys(EVENT_PAYLOADS) as EventType[];
export type EventPayload<T extends EventType> = z.infer<(typeof EVENT_PAYLOADS)[T]>;

export const ZEventEnvelope = z.object({
  id: z.string(),
  type: z.enum(EVENT_TYPES as [EventType, ...EventType[]]),
  v: z.number().int().positive(),
  audience: ZAudience,
  seq: z.number().int().nonnegative(),
  at: z.string(),
  payload: z.unknown(),
  /** The X-Request-Id of the HTTP request whose transaction wrote the event, when one did (for log correlation). */
  requestId: z.string().max(64).optional(),
});
export type TEventEnvelope<T extends EventType = EventType> = {
  id: string;
  type: T;
  v: number;
  audience: string;
  seq: number;
  at: string;
  payload: EventPayload<T>;
  /** The X-Request-Id of the HTTP request whose transaction wrote the event, when one did (for log correlation). */
  requestId?: string;
};

/** Parse an envelope and its payload by type; returns null when either does not match. */
export function parseEvent(input: unknown): TEventEnvelope | null {
  const env = ZEventEnvelope.safeParse(input);
  if (!env.success) return null;
  const payload = EVENT_PAYLOADS[env.data.type].safeParse(env.data.payload);
  if (!payload.success) return null;
  return { ...env.data, payload: payload.data } as TEventEnvelope;
}

/** Client -> server: resume after reconnect. `last` maps audience -> last applied seq. */
export const ZSyncRequest = z.object({ last: z.record(ZAudience, z.number().int().nonnegative()) }).strict();
export type TSyncRequest = z.infer<typeof ZSyncRequest>;
export type TSyncReply = { ok: true; events: TEventEnvelope[] } | { ok: false; code: string };

/**
 * Consecutive events of one audience in one relay pass reach a socket as ONE `events` frame (an array,
 * in seq order) of at most this many; a lone event comes as `event`. A client applies each element as it
 * would an `event` frame.
 */
export const EVENTS_PER_FRAME = 100;

/** Socket.IO event maps, shared by server and client. */
export type ServerToClientEvents = {
  event: (env: TEventEnvelope) => void;
  events: (envs: TEventEnvelope[]) => void;
  hello: (info: { memberId: number | null; merchantCode: string; audiences: string[]; nodeId: string }) => void;
};
export type ClientToServerEvents = {
  sync: (req: TSyncRequest, ack: (reply: TSyncReply) => void) => void;
  /** A red envelope grab over the socket (api/red-envelopes.ts, ZSocketGrabRequest). */
  'envelope:grab': (req: TSocketGrabRequest, ack: (reply: TSocketGrabReply) => void) => void;
};
/** Handshake `auth` sent by clients. */
export const ZHandshakeAuth = z
  .object({
    token: z.string().max(256).optional(),
    /** An operator token (the console's live chat): the socket joins `ops:{code}` only, never a member's rooms. */
    opsToken: z.string().max(256).optional(),
    merchant: z.string().max(32).optional(),
    last: z.record(z.string(), z.number().int().nonnegative()).optional(),
  })
  .passthrough();
