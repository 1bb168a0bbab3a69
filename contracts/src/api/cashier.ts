import { z } from 'zod';
import { defineCall, ZNoQuery } from './envelope.ts';
import { WITHDRAWAL_STATUSES } from '../events/events.ts';
import { LIMITS } from '../domain/constants.ts';

/**
 * Cashier: deposits through payment channels (a provider's pay page and signed callback, or a manual
 * bank deposit an operator confirms) and withdrawals to a member's bank account (hold, operator
 * approval and payout, the player's confirmation). Amounts are integer minor units (centavos).
 */

/** Minor units: a positive whole number (at most 1e12 centavos). */
export const ZAmount = z.number().int().positive().max(1_000_000_000_000);
/** A client-chosen idempotency key: the same key and terms apply once. */
export const ZRequestId = z.string().trim().regex(/^[A-Za-z0-9_-]{8,64}$/);
/** The transaction (withdraw) password: never trimmed. */
export const ZWithdrawPassword = z.string().min(1).max(128);

// ---- deposits ----

export const DEPOSIT_STATUSES = ['pending', 'paid', 'failed', 'rejected', 'expired'] as const;
export type DepositStatus = (typeof DEPOSIT_STATUSES)[number];
/**
 * How long a payment provider's order waits for its payment: then the `cashier.deposit.expire` job
 * marks it expired (it no longer counts against a deposit limit and offers no Pay link). A manual bank
 * deposit waits for its operator instead.
 */
export const DEPOSIT_ORDER_TTL_MINUTES = 30;
/**
 * Legal deposit transitions. `paid` and `rejected` are final: a provider's 'failed' after 'paid'
 * changes nothing. A provider's 'failed' is not final: the same order may still succeed with the
 * provider (the player retries on the pay page), and a later 'paid' credits it. An operator's
 * rejection of a manual deposit is final. An expired order is credited if its provider reports it paid
 * after all (the player's money arrived); a late 'failed' changes nothing.
 */
export const DEPOSIT_TRANSITIONS: Record<DepositStatus, readonly DepositStatus[]> = {
  pending: ['paid', 'failed', 'rejected', 'expired'],
  failed: ['paid'],
  paid: [],
  rejected: [],
  expired: ['paid'],
};

/**
 * What kind of payment a channel is: the Philippine e-wallets and InstaPay, Vietnam's VietQR, MoMo and
 * ZaloPay e-wallets and NAPAS 247 bank transfer, and a manual bank deposit (an operator confirms).
 */
export const CHANNEL_KINDS = ['gcash', 'maya', 'instapay', 'vietqr', 'momo', 'zalopay', 'napas', 'manual_bank'] as const;
export type TChannelKind = (typeof CHANNEL_KINDS)[number];
export const ZPaymentChannel = z.object({
  code: z.string(),
  kind: z.enum(CHANNEL_KINDS),
  /** 'sim' (or a real provider): a pay page; 'manual': transfer to the bank details, an operator confirms. */
  provider: z.string(),
  name: z.string(),
  minAmount: z.number().int(),
  maxAmount: z.number().int(),
  /** Manual bank deposits: where to send the money. */
  bankDetails: z.object({ bankName: z.string(), accountName: z.string(), accountNumber: z.string() }).nullable(),
});
export type TPaymentChannel = z.infer<typeof ZPaymentChannel>;

export const ZCreateDepositBody = z
  .object({
    channelCode: z.string().trim().max(32),
    amount: ZAmount,
    requestId: ZRequestId,
    /** Manual bank deposits: the player's transfer reference. */
    payerReference: z.string().trim().max(64).optional(),
  })
  .strict();

export const ZDeposit = z.object({
  id: z.string(),
  channelCode: z.string(),
  provider: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  status: z.enum(DEPOSIT_STATUSES),
  /** Where to send the player to pay (provider channels while pending), else null. */
  payUrl: z.string().nullable(),
  reference: z.string(),
  payerReference: z.string().nullable(),
  /** The operator's reason when it rejected a manual deposit (as a withdrawal's), else null. */
  reason: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TDeposit = z.infer<typeof ZDeposit>;

export const ZPageQuery = z
  .object({
    pageNo: z.coerce.number().int().min(1).default(1),
    pageSize: z.coerce.number().int().min(1).max(100).default(20),
  })
  .strict();
export const zPage = <T extends z.ZodType>(item: T) =>
  z.object({ list: z.array(item), pageNo: z.number().int(), pageSize: z.number().int(), total: z.number().int() });

/** The provider callback path: POST with the provider's own body and signature headers (not JSON-enveloped input). */
export const paymentCallbackPath = (provider: string) => `/wps/payment/callback/${provider}`;
/** The simulator's pay page (a small HTML page served by the gateway). */
export const PAY_SIM_PATH = '/pay/sim';
/** The simulator's signature header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.rawBody">`. */
export const SIM_SIGNATURE_HEADER = 'x-sim-signature';

// ---- bank accounts and the withdraw password ----

export const MAX_BANK_ACCOUNTS = 3;
export const ZBankAccount = z.object({
  id: z.string(),
  bankName: z.string(),
  accountName: z.string(),
  /** Masked except the last 4 digits. */
  accountNumber: z.string(),
  createdAt: z.string(),
});
export type TBankAccount = z.infer<typeof ZBankAccount>;
export const ZAddBankAccountBody = z
  .object({
    bankName: z.string().trim().min(2).max(64),
    accountName: z.string().trim().min(2).max(64).regex(/^[\p{L} .,'-]+$/u),
    accountNumber: z.string().trim().regex(/^[0-9]{6,20}$/),
    withdrawPassword: ZWithdrawPassword,
  })
  .strict();

/** Set the first withdraw password (with the login password) or change it (with the old one). */
export const ZWithdrawPasswordBody = z
  .object({
    loginPassword: z.string().max(128).optional(),
    oldWithdrawPassword: z.string().max(128).optional(),
    newWithdrawPassword: z.string().min(6).max(64),
    confirmNewWithdrawPassword: z.string().max(64),
  })
  .strict();

// ---- withdrawals ----

export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];
/**
 * Legal withdrawal transitions. The hold is taken at `requested`, voided at `rejected`, posted at
 * `paid`. `held` is an unknown payout outcome: it stays held until an operator reconciles it as
 * paid or as failed (failed -> `rejected`, funds back). The player's confirmations and the
 * auto-receive are final: a forced receipt is not reversed and not refunded.
 */
export const WITHDRAWAL_TRANSITIONS: Record<WithdrawalStatus, readonly WithdrawalStatus[]> = {
  requested: ['approved', 'rejected'],
  approved: ['paid', 'rejected', 'held'],
  held: ['paid', 'rejected'],
  paid: ['received', 'partially_received', 'not_received', 'auto_received'],
  rejected: [],
  received: [],
  partially_received: [],
  not_received: [],
  auto_received: [],
};
export const canMoveWithdrawal = (from: WithdrawalStatus, to: WithdrawalStatus) => WITHDRAWAL_TRANSITIONS[from].includes(to);
/** Statuses where the hold is still pending / has been posted / was voided. */
export const WITHDRAWAL_HOLD_PENDING: readonly WithdrawalStatus[] = ['requested', 'approved', 'held'];
export const WITHDRAWAL_HOLD_POSTED: readonly WithdrawalStatus[] = ['paid', 'received', 'partially_received', 'not_received', 'auto_received'];
export const DEFAULT_AUTO_RECEIVE_MINUTES = 30;

export const ZCreateWithdrawalBody = z
  .object({ bankAccountId: z.string().regex(/^\d{1,18}$/), amount: ZAmount, withdrawPassword: ZWithdrawPassword, requestId: ZRequestId })
  .strict();

export const ZWithdrawal = z.object({
  id: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  status: z.enum(WITHDRAWAL_STATUSES),
  bankName: z.string(),
  accountName: z.string(),
  accountNumber: z.string(),
  receivedAmount: z.number().int().nullable(),
  /** Amount minus received amount once confirmed, else null. */
  remainingAmount: z.number().int().nullable(),
  reason: z.string().nullable(),
  paidAt: z.string().nullable(),
  autoReceiveAt: z.string().nullable(),
  confirmedAt: z.string().nullable(),
  proofCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TWithdrawal = z.infer<typeof ZWithdrawal>;

export const ZWithdrawalLimits = z.object({
  currency: z.string(),
  min: z.number().int(),
  max: z.number().int(),
  dailyMax: z.number().int(),
  /** Requested today (merchant's day) and not rejected. */
  usedToday: z.number().int(),
  autoReceiveMinutes: z.number().int(),
  hasWithdrawPassword: z.boolean(),
});

export const CONFIRM_RESULTS = ['received', 'not_received', 'partially_received'] as const;
/**
 * The confirmation of a paid withdrawal: multipart/form-data with the fields `result`,
 * `receivedAmount` (partially_received) and up to 3 files `proof` (png or jpeg, 5 MB each).
 * not_received and partially_received need at least one proof.
 */
export const ZConfirmWithdrawalFields = z
  .object({
    result: z.enum(CONFIRM_RESULTS),
    // A form field is text: whole minor units in decimal digits only (no '0x10', ' 5 ', '1e3').
    receivedAmount: z.string().regex(/^\d{1,15}$/, 'Whole minor units, digits only').transform(Number).optional(),
  })
  .strict();
export const PROOF_LIMITS = { maxBytes: LIMITS.IMAGE_MAX_BYTES, maxFiles: LIMITS.IMAGE_MAX_COUNT, field: 'proof' } as const;

const ZIdParam = z.object({}).strict();

export const cashierCalls = {
  channels: defineCall({ method: 'GET', path: '/wps/v2/deposit/channels', auth: true, query: ZNoQuery, value: z.object({ list: z.array(ZPaymentChannel) }) }),
  createDeposit: defineCall({ method: 'POST', path: '/wps/v2/deposit/orders', auth: true, body: ZCreateDepositBody, value: ZDeposit }),
  deposits: defineCall({ method: 'GET', path: '/wps/v2/deposit/orders', auth: true, query: ZPageQuery, value: zPage(ZDeposit) }),
  deposit: defineCall({ method: 'GET', path: '/wps/v2/deposit/orders/:id', auth: true, query: ZIdParam, value: ZDeposit }),

  bankAccounts: defineCall({ method: 'GET', path: '/wps/v2/bank-accounts', auth: true, query: ZNoQuery, value: z.object({ list: z.array(ZBankAccount) }) }),
  addBankAccount: defineCall({ method: 'POST', path: '/wps/v2/bank-accounts', auth: true, body: ZAddBankAccountBody, value: ZBankAccount }),
  removeBankAccount: defineCall({ method: 'DELETE', path: '/wps/v2/bank-accounts/:id', auth: true, value: z.object({}) }),
  withdrawPasswordStatus: defineCall({ method: 'GET', path: '/wps/member/withdraw-password', auth: true, query: ZNoQuery, value: z.object({ isSet: z.boolean() }) }),
  setWithdrawPassword: defineCall({ method: 'POST', path: '/wps/member/withdraw-password', auth: true, body: ZWithdrawPasswordBody, value: z.object({ isSet: z.literal(true) }) }),

  withdrawalLimits: defineCall({ method: 'GET', path: '/wps/v2/withdrawals/limits', auth: true, query: ZNoQuery, value: ZWithdrawalLimits }),
  createWithdrawal: defineCall({ method: 'POST', path: '/wps/v2/withdrawals', auth: true, body: ZCreateWithdrawalBody, value: ZWithdrawal }),
  withdrawals: defineCall({ method: 'GET', path: '/wps/v2/withdrawals', auth: true, query: ZPageQuery, value: zPage(ZWithdrawal) }),
  withdrawal: defineCall({ method: 'GET', path: '/wps/v2/withdrawals/:id', auth: true, query: ZIdParam, value: ZWithdrawal }),
  /** multipart/form-data, see ZConfirmWithdrawalFields; mounted by hand (not JSON). */
  confirmWithdrawal: { method: 'POST', path: '/wps/v2/withdrawals/:id/confirm', auth: true, value: ZWithdrawal },
};
