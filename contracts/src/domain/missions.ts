/**
 * Missions and leaderboard (issue 14): the rules both sides share. Periods follow the merchant's
 * calendar, its brand's fixed UTC offset (minutes east): a day starts at local midnight, a week on
 * local Monday midnight.
 */
export const MISSION_PERIODS = ['daily', 'weekly'] as const;
export type TMissionPeriod = (typeof MISSION_PERIODS)[number];
/**
 * valid_bet: amount of valid bets (minor units); bet_count: number of bets; game_bet: amount of valid
 * bets on one game type; deposit: amount of paid deposits (minor units); login_days: days signed in.
 */
export const MISSION_KINDS = ['valid_bet', 'bet_count', 'game_bet', 'deposit', 'login_days'] as const;
export type TMissionKind = (typeof MISSION_KINDS)[number];
/** Kinds whose target and progress are money (minor units); the others are counts. */
export const isMoneyKind = (k: TMissionKind) => k === 'valid_bet' || k === 'game_bet' || k === 'deposit';
/** The most sign-in days a period has (a daily mission counts 1, a weekly one 7): a higher target could never be met. */
export const maxLoginDays = (p: TMissionPeriod) => (p === 'daily' ? 1 : 7);
/** A mission's status for the player, in the activity statuses' words (spec section 4). */
export const MISSION_STATUSES = ['processing', 'claim', 'claimed'] as const;
export type TMissionStatus = (typeof MISSION_STATUSES)[number];

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** Start (UTC instant) of the period holding `at` on the merchant's calendar. */
export function missionPeriodStart(at: Date, period: TMissionPeriod, gmtOffsetMinutes: number): Date {
  const local = new Date(at.getTime() + gmtOffsetMinutes * MINUTE);
  const midnight = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
  const start = period === 'daily' ? midnight : midnight - ((local.getUTCDay() + 6) % 7) * DAY;
  return new Date(start - gmtOffsetMinutes * MINUTE);
}
/** End (exclusive) of that period. */
export function missionPeriodEnd(at: Date, period: TMissionPeriod, gmtOffsetMinutes: number): Date {
  return new Date(missionPeriodStart(at, period, gmtOffsetMinutes).getTime() + (period === 'daily' ? DAY : 7 * DAY));
}
/** The period's key: the local day ('2026-11-24'), or 'W' and the local Monday ('W2026-11-23'). */
export function missionPeriodKey(at: Date, period: TMissionPeriod, gmtOffsetMinutes: number): string {
  const day = new Date(missionPeriodStart(at, period, gmtOffsetMinutes).getTime() + gmtOffsetMinutes * MINUTE).toISOString().slice(0, 10);
  return period === 'daily' ? day : `W${day}`;
}
/** The period a key names ('daily' for a day, 'weekly' for 'W...'). */
export const periodOfKey = (key: string): TMissionPeriod => (key.startsWith('W') ? 'weekly' : 'daily');
