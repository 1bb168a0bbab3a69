import { z } from 'zod';
import { defineCall, ZNoQuery } from './envelope.ts';
import { ZPageQuery, ZRequestId, zPage } from './cashier.ts';
import { RED_ENVELOPE_LIMITS } from '../domain/red-envelope-split.ts';
import { ZDay } from './instant.ts';

/**
 * Red envelopes (hongbao, issue 14): an operator drops an envelope with a total and a count of shares
 * to a merchant's players or a segment of them; it appears live on their pages (`envelope.dropped`),
 * each player grabs one share at most, and what nobody grabbed returns to the house when it expires.
 */

const ZMinor = z.number().int();
const ZAccountName = z.string().trim().min(1).max(64);


/**
 * Who may grab: every player of the merchant; the players with a paid deposit in the last `days` days
 * (when the envelope is dropped); the participants of one promotion (joined it, or had a reward or a
 * reward request of it); the players who registered between `from` and `to` (both days included, on the
 * merchant's calendar); or the listed accounts (at most 1,000). A segment is fixed when the envelope
 * drops. Excluded (responsible gaming), disabled and trial accounts never get one. There are no VIP
 * levels in this product, so there is no VIP segment.
 */
export const ZEnvelopeAudience = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('all') }).strict(),
  z.object({ kind: z.literal('depositors'), days: z.number().int().min(1).max(90) }).strict(),
  z.object({ kind: z.literal('promotion'), promotionId: z.string().regex(/^[1-9]\d{0,14}$/, 'a promotion id') }).strict(),
  z
    .object({ kind: z.literal('registered'), from: ZDay, to: ZDay })
    .strict()
    .refine((a) => a.from <= a.to, { message: 'from is after to', path: ['from'] }),
  z
    .object({ kind: z.literal('accounts'), accounts: z.array(ZAccountName).min(1).max(1000) })
    .strict()
    .refine((a) => new Set(a.accounts.map((x) => x.toLowerCase())).size === a.accounts.length, 'duplicate account'),
]);
export type TEnvelopeAudience = z.infer<typeof ZEnvelopeAudience>;
export const ENVELOPE_AUDIENCE_KINDS = ['all', 'depositors', 'promotion', 'registered', 'accounts'] as const;

/**
 * The languages of the site (`supported`) an envelope's message leaves out, when it has one: a message is
 * written in every language of the site or in none (one language alone reached the others' players in it).
 */
export function missingMessageLanguages(message: { en?: string | undefined; ty?: string | undefined }, supported: readonly string[]): Array<'EN' | 'TY'> {
  const given = { EN: !!message.en?.trim(), TY: !!message.ty?.trim() };
  if (!given.EN && !given.TY) return [];
  return (['EN', 'TY'] as const).filter((l) => supported.includes(l) && !given[l]);
}

/** The operator's message in each language (either may be left out; the client falls back to the other, then to its own text). */
export const ZEnvelopeMessage = z.object({ en: z.string().trim().max(80).optional(), ty: z.string().trim().max(80).optional() }).strict();

export const ZDropEnvelopeBody = z
  .object({
    /** Minor units. */
    totalAmount: ZMinor.min(1).max(RED_ENVELOPE_LIMITS.MAX_TOTAL),
    count: z.number().int().min(1).max(RED_ENVELOPE_LIMITS.MAX_COUNT),
    /** The smallest share, minor units. */
    minShare: ZMinor.min(1),
    /** Open for this many minutes from the drop. */
    expiresInMinutes: z.number().int().min(1).max(7 * 24 * 60),
    audience: ZEnvelopeAudience,
    message: ZEnvelopeMessage.default({}),
    /** Idempotency: the same request id drops one envelope, funded once. */
    requestId: ZRequestId,
  })
  .strict()
  .refine((b) => b.count * b.minShare <= b.totalAmount, { message: 'the total cannot give every share its minimum', path: ['minShare'] });

/** An envelope as its players see it (the open list, the drop event). */
export const ZOpenEnvelope = z.object({
  envelopeId: z.string(),
  totalAmount: ZMinor,
  count: z.number().int(),
  message: z.object({ en: z.string().nullable(), ty: z.string().nullable() }),
  droppedAt: z.string(),
  expiresAt: z.string(),
  /** Shares still free now (live: `envelope.left`). */
  left: z.number().int().nonnegative(),
});
export type TOpenEnvelope = z.infer<typeof ZOpenEnvelope>;

export const ZGrabValue = z.object({
  envelopeId: z.string(),
  /** The share this player got, minor units. */
  amount: ZMinor,
  transferId: z.string(),
  /** Balance after the share, minor units. */
  balance: ZMinor,
  available: ZMinor,
});
export type TGrabValue = z.infer<typeof ZGrabValue>;

/** One envelope a player grabbed (member centre history). */
export const ZGrabRecord = z.object({
  envelopeId: z.string(),
  amount: ZMinor,
  grabbedAt: z.string(),
  message: z.object({ en: z.string().nullable(), ty: z.string().nullable() }),
});
export type TGrabRecord = z.infer<typeof ZGrabRecord>;

export const ENVELOPE_STATUSES = ['open', 'expired'] as const;
/** The operator's view of an envelope: how much was grabbed and returned. */
export const ZOpsEnvelope = z.object({
  envelopeId: z.string(),
  status: z.enum(ENVELOPE_STATUSES),
  totalAmount: ZMinor,
  count: z.number().int(),
  minShare: ZMinor,
  /** The segment as dropped: days (depositors), promotionId (promotion), from/to (registered); targets: its members at the drop (null: every player). */
  audience: z.object({
    kind: z.enum(ENVELOPE_AUDIENCE_KINDS), days: z.number().int().nullable(), promotionId: z.string().nullable(),
    from: z.string().nullable(), to: z.string().nullable(), targets: z.number().int().nullable(),
  }),
  message: z.object({ en: z.string().nullable(), ty: z.string().nullable() }),
  grabbedCount: z.number().int(),
  grabbedAmount: ZMinor,
  /** Returned to the house at expiry (null while open). */
  refundedAmount: ZMinor.nullable(),
  createdBy: z.string(),
  droppedAt: z.string(),
  expiresAt: z.string(),
});
export type TOpsEnvelope = z.infer<typeof ZOpsEnvelope>;


/** The player's calls (member; trial accounts get TRIAL_FORBIDDEN). */
export const redEnvelopeCalls = {
  /** The envelopes open to this player now and not yet grabbed by them (a page that loads after the drop shows these). */
  open: defineCall({ method: 'GET', path: '/wps/envelopes/open', auth: true, query: ZNoQuery, value: z.object({ list: z.array(ZOpenEnvelope) }) }),
  /**
   * Grab a share: one per player per envelope. 404 NOT_FOUND (no such envelope for this merchant),
   * 410 ENVELOPE_EXPIRED, 409 ENVELOPE_ALREADY_GRABBED, 409 ENVELOPE_EMPTY, 403 ENVELOPE_NOT_ELIGIBLE,
   * 403 RG_EXCLUDED, 403 TRIAL_FORBIDDEN.
   */
  grab: defineCall({ method: 'POST', path: '/wps/envelopes/:id/grab', auth: true, body: z.object({}).strict(), value: ZGrabValue }),
  /** The envelopes this player grabbed, newest first. */
  history: defineCall({ method: 'GET', path: '/wps/envelopes/history', auth: true, query: ZPageQuery, value: zPage(ZGrabRecord) }),
};

/**
 * The same grab over the page's socket (Socket.IO event `envelope:grab` with an ack), for the moment
 * a drop reaches thousands of open pages at once: no HTTP request, no session lookup of its own (the
 * socket's session is re-checked, many grabs per statement), the same service, checks and answers as
 * POST /wps/envelopes/:id/grab. The ack is the HTTP call's envelope: `{ success: true, value }` or
 * `{ success: false, code, message, value? }` (the codes above, plus UNAUTHORIZED for a guest's socket
 * or a session that ended, VALIDATION for a bad request, MAINTENANCE / REGION_RESTRICTED as over HTTP,
 * TOO_MANY_REQUESTS past GRABS_IN_FLIGHT_PER_SOCKET unanswered grabs on one socket).
 */
export const ZSocketGrabRequest = z.object({ envelopeId: z.string().regex(/^[1-9]\d{0,14}$/) }).strict();
export type TSocketGrabRequest = z.infer<typeof ZSocketGrabRequest>;
export type TSocketGrabReply =
  | { success: true; value: TGrabValue }
  | { success: false; code: string; message: string; value?: Record<string, unknown> };
export const GRABS_IN_FLIGHT_PER_SOCKET = 4;

/** The back office (/ops/api/envelopes): permission envelopes.read to list, envelopes.drop to drop. */
export const opsRedEnvelopeCalls = {
  list: defineCall({ method: 'GET', path: '/ops/api/envelopes', auth: true, query: ZPageQuery, value: zPage(ZOpsEnvelope) }),
  drop: defineCall({ method: 'POST', path: '/ops/api/envelopes', auth: true, body: ZDropEnvelopeBody, value: z.object({ envelope: ZOpsEnvelope, replayed: z.boolean() }) }),
};
