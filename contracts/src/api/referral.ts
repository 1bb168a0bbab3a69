import { z } from 'zod';
import { defineCall } from './envelope.ts';
import { ZPageQuery } from './cashier.ts';

/**
 * Member-centre item `referral`: the member's own invitation link and who registered through it.
 * The link is built on the merchant's configured domain (never the request's Host) as
 * `<origin>/register?referralCode=<code>`; registering through it sends `referralCode` (spec section
 * 3, registration form) and records the referrer. A referrer is not an upline: the agent team tree
 * (affiliateCode, agent invitations) is separate.
 */
export const ZReferralInvitee = z.object({
  /** The account, masked but for its first and last characters. */
  account: z.string(),
  registeredAt: z.string(),
  hasDeposited: z.boolean(),
  firstDepositAt: z.string().nullable(),
});
export type TReferralInvitee = z.infer<typeof ZReferralInvitee>;
export const ZReferralValue = z.object({
  code: z.string(),
  link: z.string(),
  registered: z.number().int(),
  deposited: z.number().int(),
  list: z.array(ZReferralInvitee),
  pageNo: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});
export type TReferralValue = z.infer<typeof ZReferralValue>;

export const referralCalls = {
  /** The link (its code made on first use) and one page of the members who registered through it. */
  summary: defineCall({ method: 'GET', path: '/wps/v2/referral', auth: true, query: ZPageQuery, value: ZReferralValue }),
};
