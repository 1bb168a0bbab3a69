import { z } from 'zod';
import { defineCall, relayPath, ZNoQuery } from './envelope.ts';
import { MESSAGE_CATEGORIES, MESSAGE_KINDS, ZUnreadByCategory } from '../events/events.ts';
import { ZAmount, ZPageQuery, ZRequestId, ZWithdrawPassword, zPage } from './cashier.ts';
import { ZDayOrTime } from './instant.ts';

/**
 * Wallet: balance, the account record (ledger movements of the member's account), transfers to
 * the upline and from an agent to its downline, and player messages. Minor units throughout.
 */

export const ZBalance = z.object({
  currency: z.string(),
  currencySymbol: z.string(),
  balance: z.number().int(),
  /** Balance minus open holds (pending withdrawals). */
  available: z.number().int(),
  held: z.number().int(),
});
export type TBalance = z.infer<typeof ZBalance>;

/** The widest date range an account-record query may span; a wider one is narrowed to this many days before `to`. */
export const RECORDS_MAX_RANGE_DAYS = 90;
export const RECORDS_DEFAULT_RANGE_DAYS = 7;
/** yyyy-MM-dd (a whole day in the merchant's time zone) or an ISO date-time. */
export const ZRecordsQuery = ZPageQuery.extend({ from: ZDayOrTime.optional(), to: ZDayOrTime.optional() }).strict();

export const ZRecord = z.object({
  id: z.string(),
  time: z.string(),
  /** deposit, withdrawal, transfer_upline, transfer_downline, adjustment, ... */
  kind: z.string(),
  /** Signed: negative leaves the account. A pending or voided hold has no balance change. */
  amount: z.number().int(),
  /** Balance after a posted movement; null for a hold. */
  balanceAfter: z.number().int().nullable(),
  status: z.enum(['posted', 'pending', 'voided']),
  reference: z.string(),
});
export type TRecord = z.infer<typeof ZRecord>;
/**
 * The account record's kind for ledger moves whose ledger kind has dots (a dotted name cannot be a
 * translation key): points converted to balance, an approved cash redeem of the points mall, promotion
 * rewards and bonus conversions (and their undoing), mission rewards, red envelope grabs, agents' contract
 * payouts. Other ledger
 * kinds (deposit, bet, ...) are shown under their own name.
 */
export const LEDGER_RECORD_KINDS = {
  'points.convert': 'points_convert',
  'points.redeem': 'points_redeem',
  'promo.reward': 'promo_reward',
  'promo.bonus.convert': 'bonus_convert',
  'promo.bonus.revert': 'bonus_revert',
  'mission.reward': 'mission_reward',
  'envelope.grab': 'envelope_grab',
  // An agent's contract payouts (agents/settlement.ts: 'agent.' + the contract kind) and their corrections
  // (agents/disputes.ts); the account record called them "Other".
  'agent.dividend': 'dividend',
  'agent.dailyWages': 'daily_salary',
  'agent.hourlySalary': 'hourly_salary',
  'agent.realtimeSalary': 'realtime_salary',
  'agent.adjustment': 'agent_adjustment',
} as const satisfies Record<string, string>;
/** The record kind shown for a ledger kind. */
export const recordKindOf = (ledgerKind: string): string => (LEDGER_RECORD_KINDS as Record<string, string>)[ledgerKind] ?? ledgerKind;
export const ZRecordsValue = zPage(ZRecord).extend({ from: z.string(), to: z.string() });

export const TRANSFER_DIRECTIONS = ['upline', 'downline'] as const;
/** relay GCS_walletTransfer (POST): to the direct upline, or (agents) to a member of the own tree by account name. */
export const ZWalletTransferBody = z
  .object({
    direction: z.enum(TRANSFER_DIRECTIONS),
    /** downline only: the receiving member's account. */
    toAccount: z.string().trim().max(64).optional(),
    amount: ZAmount,
    withdrawPassword: ZWithdrawPassword,
    requestId: ZRequestId,
  })
  .strict();
export const ZWalletTransfer = z.object({
  id: z.string(),
  direction: z.enum(TRANSFER_DIRECTIONS),
  fromAccount: z.string(),
  toAccount: z.string(),
  /** Signed from the caller's side. */
  amount: z.number().int(),
  createdAt: z.string(),
});
export type TWalletTransfer = z.infer<typeof ZWalletTransfer>;

export const ZMessage = z.object({
  id: z.string(),
  kind: z.enum(MESSAGE_KINDS),
  /** A translation key (message_deposit_credited, ...); `params` fill it. */
  title: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])),
  read: z.boolean(),
  createdAt: z.string(),
  /** Operator-written messages (marketing): the texts per language; `title` is then 'message_marketing'. */
  texts: z.object({ EN: z.object({ title: z.string(), content: z.string() }), TY: z.object({ title: z.string(), content: z.string() }) }).nullable(),
});
export type TMessage = z.infer<typeof ZMessage>;
export const ZMarkReadBody = z
  .object({ ids: z.array(z.string().regex(/^\d{1,18}$/)).max(100).optional(), all: z.boolean().optional(), category: z.enum(MESSAGE_CATEGORIES).optional() })
  .strict()
  .refine((b) => b.all === true || (b.ids?.length ?? 0) > 0, { message: 'ids or all' });

export const ZMessagesQuery = ZPageQuery.extend({ category: z.enum(MESSAGE_CATEGORIES).optional() }).strict();

export const walletCalls = {
  balance: defineCall({ method: 'GET', path: '/wps/v2/wallets/balance', auth: true, trial: true, query: ZNoQuery, value: ZBalance }),
  merchantWallet: defineCall({ method: 'GET', path: relayPath('GCS_merchantWallet'), auth: true, trial: true, query: z.object({ merchantCode: z.string().max(32).optional() }).strict(), value: z.object({ isSingle: z.literal(1) }) }),
  records: defineCall({ method: 'GET', path: '/wps/v2/wallets/records', auth: true, query: ZRecordsQuery, value: ZRecordsValue }),
  transfer: defineCall({ method: 'POST', path: relayPath('GCS_walletTransfer'), auth: true, body: ZWalletTransferBody, value: ZWalletTransfer }),
  transfers: defineCall({ method: 'GET', path: relayPath('GCS_walletTransfer'), auth: true, query: ZPageQuery, value: zPage(ZWalletTransfer) }),
  unreadCount: defineCall({ method: 'GET', path: relayPath('CSP_unreadCount'), auth: true, query: ZNoQuery, value: z.object({ count: z.number().int(), byCategory: ZUnreadByCategory }) }),
  /** Newest first; `category` narrows to one tab of the message centre. */
  messages: defineCall({ method: 'GET', path: '/wps/v2/messages', auth: true, query: ZMessagesQuery, value: zPage(ZMessage).extend({ unreadCount: z.number().int(), byCategory: ZUnreadByCategory }) }),
  markRead: defineCall({ method: 'POST', path: '/wps/v2/messages/read', auth: true, body: ZMarkReadBody, value: z.object({ count: z.number().int(), byCategory: ZUnreadByCategory }) }),
};
