import { describe, expect, it } from 'vitest';
import { canMoveRedeem, cashForPoints, pointsForBet, REDEEM_STATUSES } from './points.ts';

describe('points rules', () => {
  it('a bet earns one point per ratio, rounded down, per bet; nothing for junk', () => {
    expect(pointsForBet(250_00, 100)).toBe(250);
    expect(pointsForBet(99, 100)).toBe(0);
    expect(pointsForBet(1_999, 1_000)).toBe(1);
    expect(pointsForBet(0, 100)).toBe(0);
    expect(pointsForBet(-500, 100)).toBe(0);
    expect(pointsForBet(500, 0)).toBe(0);
  });
  it('conversion is points x the rate in minor units', () => {
    expect(cashForPoints(100, 10)).toBe(1_000);
    expect(cashForPoints(0, 10)).toBe(0);
  });
  it('a redeem moves from processing to approved or rejected, and never again', () => {
    const moves = REDEEM_STATUSES.flatMap((from) => REDEEM_STATUSES.filter((to) => canMoveRedeem(from, to)).map((to) => `${from}>${to}`));
    expect(moves).toEqual(['processing>approved', 'processing>rejected']);
  });
});
