import { z } from 'zod';
import { defineCall } from './envelope.ts';
import { ZPageQuery, zPage } from './cashier.ts';
import { ZDayOrTime } from './instant.ts';

/**
 * Betting record (module TRANSBETREPMEM3): the member's game rounds from the seamless wallet,
 * one row per vendor round with its stake and win. Minor units.
 */
export const ZBetsQuery = ZPageQuery.extend({
  /** yyyy-MM-dd (a whole day in the merchant's zone) or an ISO time; default the past 7 days, at most 90. */
  from: ZDayOrTime.optional(),
  to: ZDayOrTime.optional(),
  /** Only this vendor's rounds (e.g. HOUSE). */
  vendor: z.string().regex(/^[A-Za-z0-9_]{1,32}$/).optional(),
}).strict();

export const BET_STATUSES = ['settled', 'open', 'rolled_back'] as const;
export const ZBet = z.object({
  roundId: z.string(),
  vendor: z.string(),
  gameCode: z.string().nullable(),
  gameName: z.string().nullable(),
  gameType: z.string().nullable(),
  stake: z.number().int(),
  win: z.number().int(),
  /** When the round's bet was taken (ISO). */
  time: z.string(),
  /** settled: win (or 0) received; open: waiting for the result; rolled_back: the stake was returned. */
  status: z.enum(BET_STATUSES),
});
export type TBet = z.infer<typeof ZBet>;
export const ZBetsValue = zPage(ZBet).extend({
  from: z.string(),
  to: z.string(),
  /** Sums over the whole range (all pages), rolled-back rounds excluded. */
  totalStake: z.number().int(),
  totalWin: z.number().int(),
});

export const betsCalls = {
  list: defineCall({ method: 'GET', path: '/wps/v2/bets', auth: true, query: ZBetsQuery, value: ZBetsValue }),
};
