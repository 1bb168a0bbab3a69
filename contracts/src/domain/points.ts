/**
 * Points (issue 14; spec sections 1, 3, 4): whole points, never expiring. Earned per valid bet at the
 * merchant's ratio, spent on catalogue rewards or converted to cash at the merchant's rate.
 */

/** Points redeem status (spec section 4): processing, then approved or rejected, once. */
export const REDEEM_STATUSES = ['processing', 'approved', 'rejected'] as const;
export type TRedeemStatus = (typeof REDEEM_STATUSES)[number];

/** The only moves a redeem may make. */
export const REDEEM_TRANSITIONS: Readonly<Record<TRedeemStatus, readonly TRedeemStatus[]>> = {
  processing: ['approved', 'rejected'],
  approved: [],
  rejected: [],
};
export const canMoveRedeem = (from: TRedeemStatus, to: TRedeemStatus) => REDEEM_TRANSITIONS[from].includes(to);

/** Kinds of the points ledger: earn (a valid bet), clawback (its rollback), redeem, refund (a rejected redeem), convert. */
export const POINTS_KINDS = ['earn', 'clawback', 'redeem', 'refund', 'convert'] as const;
export type TPointsKind = (typeof POINTS_KINDS)[number];

export const REWARD_STATUSES = ['active', 'inactive'] as const;

/** Points a bet of `amount` minor units earns: one per `betPerPoint`, rounded down, per bet. */
export function pointsForBet(amount: number, betPerPoint: number): number {
  if (!(amount > 0) || !(betPerPoint > 0)) return 0;
  return Math.floor(amount / betPerPoint);
}

/** Cash (minor units) `points` convert to at `minorPerPoint`. */
export function cashForPoints(points: number, minorPerPoint: number): number {
  return points * minorPerPoint;
}

/** Most a quantity of one redeem may be. */
export const MAX_REDEEM_QUANTITY = 99;
