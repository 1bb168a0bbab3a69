import { z } from 'zod';
import { defineCall } from './envelope.ts';
import { ZDay } from './instant.ts';

/**
 * Member-centre item `personalProfit`: the member's own profit and loss over a period, per game type,
 * with totals. From the seamless wallet's accepted calls: valid bets are accepted bets not rolled back,
 * payout is the wins paid, profit = payout - valid bets (positive when the member won). Minor units.
 */
export const PROFIT_PERIODS = ['today', '7d', '30d', 'custom'] as const;
export const ZProfitQuery = z
  .object({
    period: z.enum(PROFIT_PERIODS).default('today'),
    /** yyyy-MM-dd on the merchant's calendar, both inclusive; custom only, at most 90 days. */
    from: ZDay.optional(),
    to: ZDay.optional(),
  })
  .strict()
  .refine((q) => q.period !== 'custom' || (q.from !== undefined && q.to !== undefined), { message: 'custom needs from and to', path: ['from'] });
export const ZProfitRow = z.object({
  /** Game type (RNG, LIVE, ...); null when the game is not in the catalogue. */
  gameType: z.string().nullable(),
  betCount: z.number().int(),
  validBets: z.number().int(),
  payout: z.number().int(),
  profit: z.number().int(),
});
export type TProfitRow = z.infer<typeof ZProfitRow>;
export const ZProfitValue = z.object({
  period: z.enum(PROFIT_PERIODS),
  /** The range as instants, [from, to). */
  from: z.string(),
  to: z.string(),
  rows: z.array(ZProfitRow),
  totals: ZProfitRow.omit({ gameType: true }),
});
export type TProfitValue = z.infer<typeof ZProfitValue>;

export const profitCalls = {
  personal: defineCall({ method: 'GET', path: '/wps/v2/profit', auth: true, query: ZProfitQuery, value: ZProfitValue }),
};
