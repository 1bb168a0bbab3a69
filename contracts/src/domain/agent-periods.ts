/**
 * Settlement periods of agent contracts (spec sections 3 and 9), computed on the merchant's calendar.
 *
 * The merchant's time zone is its brand's fixed GMT offset (`brand.gmtOffsetMinutes`, minutes east
 * of UTC), the same offset the back-office header shows. A fixed offset has no daylight-saving gaps
 * or repeated hours, so every instant belongs to exactly one period of each type and consecutive
 * periods touch. Pure: no I/O, no clock (callers pass the instant).
 *
 * Periods are half-open: `start <= t < end`. The `key` names the period on the merchant's calendar
 * and is what job and ledger idempotency keys are derived from (see payoutIdempotencyKey in
 * agent-settlement.ts). It does not contain the offset: if a merchant ever changes its offset, the
 * persistence layer must settle the open periods under the old offset first, or the same key would
 * name a shifted interval.
 */

/** Dividend period types named by the spec (sections 3 and 9). */
export const DIVIDEND_PERIOD_TYPES = ['daily', 'weekly', 'semiMonthly', 'monthly'] as const;
export type DividendPeriodType = (typeof DIVIDEND_PERIOD_TYPES)[number];

/** Every period a contract is settled on: the dividend periods, hourly salary and real-time salary (every 5 minutes). */
export const PERIOD_TYPES = [...DIVIDEND_PERIOD_TYPES, 'hourly', 'fiveMinutes'] as const;
export type PeriodType = (typeof PERIOD_TYPES)[number];

/** GMT offsets that exist on Earth: UTC-12:00 to UTC+14:00. */
export const MIN_GMT_OFFSET_MINUTES = -720;
export const MAX_GMT_OFFSET_MINUTES = 840;

export type Period = {
  type: PeriodType;
  /** Stable name on the merchant's calendar, e.g. D2026-03-15, W2026-03-09 (the Monday), S2026-03-2, M2026-03, H2026-03-15T13, F2026-03-15T13:05. */
  key: string;
  /** First instant of the period (inclusive). */
  start: Date;
  /** First instant after the period (exclusive): the next period's start. */
  end: Date;
};

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

function checkOffset(offsetMinutes: number): void {
  if (!Number.isInteger(offsetMinutes) || offsetMinutes < MIN_GMT_OFFSET_MINUTES || offsetMinutes > MAX_GMT_OFFSET_MINUTES) {
    throw new RangeError(`GMT offset must be whole minutes from ${MIN_GMT_OFFSET_MINUTES} to ${MAX_GMT_OFFSET_MINUTES}`);
  }
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Local wall-clock fields (merchant calendar) to the UTC instant, for a fixed offset. Date.UTC normalises overflow (month 12, day 32). */
function localToInstant(offsetMinutes: number, y: number, mo: number, d = 1, h = 0, mi = 0): Date {
  return new Date(Date.UTC(y, mo, d, h, mi) - offsetMinutes * MINUTE_MS);
}

/**
 * The period of `type` that contains `instant` on the calendar of a merchant at `offsetMinutes`.
 * Weeks start on Monday (ISO). Semi-monthly periods are the 1st to the 15th and the 16th to the
 * month's end.
 */
export function periodOf(instant: Date | number, type: PeriodType, offsetMinutes: number): Period {
  checkOffset(offsetMinutes);
  const t = typeof instant === 'number' ? instant : instant.getTime();
  if (!Number.isFinite(t)) throw new RangeError('instant must be a valid time');
  // The merchant's wall clock, read through the UTC getters.
  const local = new Date(t + offsetMinutes * MINUTE_MS);
  const y = local.getUTCFullYear();
  const mo = local.getUTCMonth();
  const d = local.getUTCDate();
  const h = local.getUTCHours();
  const ymd = `${pad(y, 4)}-${pad(mo + 1)}-${pad(d)}`;
  switch (type) {
    case 'fiveMinutes': {
      const mi = local.getUTCMinutes() - (local.getUTCMinutes() % 5);
      const start = localToInstant(offsetMinutes, y, mo, d, h, mi);
      return { type, key: `F${ymd}T${pad(h)}:${pad(mi)}`, start, end: new Date(start.getTime() + 5 * MINUTE_MS) };
    }
    case 'hourly': {
      const start = localToInstant(offsetMinutes, y, mo, d, h);
      return { type, key: `H${ymd}T${pad(h)}`, start, end: new Date(start.getTime() + HOUR_MS) };
    }
    case 'daily': {
      const start = localToInstant(offsetMinutes, y, mo, d);
      return { type, key: `D${ymd}`, start, end: new Date(start.getTime() + DAY_MS) };
    }
    case 'weekly': {
      const sinceMonday = (local.getUTCDay() + 6) % 7;
      const monday = new Date(Date.UTC(y, mo, d - sinceMonday));
      const start = localToInstant(offsetMinutes, monday.getUTCFullYear(), monday.getUTCMonth(), monday.getUTCDate());
      const key = `W${pad(monday.getUTCFullYear(), 4)}-${pad(monday.getUTCMonth() + 1)}-${pad(monday.getUTCDate())}`;
      return { type, key, start, end: new Date(start.getTime() + 7 * DAY_MS) };
    }
    case 'semiMonthly': {
      const firstHalf = d <= 15;
      const start = localToInstant(offsetMinutes, y, mo, firstHalf ? 1 : 16);
      const end = firstHalf ? localToInstant(offsetMinutes, y, mo, 16) : localToInstant(offsetMinutes, y, mo + 1, 1);
      return { type, key: `S${pad(y, 4)}-${pad(mo + 1)}-${firstHalf ? 1 : 2}`, start, end };
    }
    case 'monthly': {
      const start = localToInstant(offsetMinutes, y, mo, 1);
      return { type, key: `M${pad(y, 4)}-${pad(mo + 1)}`, start, end: localToInstant(offsetMinutes, y, mo + 1, 1) };
    }
  }
}

/** The period right after `period` (it starts at `period.end`). */
export function nextPeriod(period: Period, offsetMinutes: number): Period {
  return periodOf(period.end, period.type, offsetMinutes);
}

/** The period right before `period` (it ends at `period.start`). */
export function previousPeriod(period: Period, offsetMinutes: number): Period {
  return periodOf(period.start.getTime() - 1, period.type, offsetMinutes);
}

const KEY_PATTERNS: Record<PeriodType, RegExp> = {
  daily: /^D(\d{4})-(\d{2})-(\d{2})$/,
  weekly: /^W(\d{4})-(\d{2})-(\d{2})$/,
  semiMonthly: /^S(\d{4})-(\d{2})-([12])$/,
  monthly: /^M(\d{4})-(\d{2})$/,
  hourly: /^H(\d{4})-(\d{2})-(\d{2})T(\d{2})$/,
  fiveMinutes: /^F(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/,
};

/**
 * The period a key names, or null when the key is not a well-formed key of that type (a day that
 * does not exist, a weekly key that is not a Monday, minutes not on a 5-minute mark...). Lets an API
 * take a period key from a request and answer 400 on a bad one.
 */
export function parsePeriodKey(key: string, type: PeriodType, offsetMinutes: number): Period | null {
  checkOffset(offsetMinutes);
  const m = KEY_PATTERNS[type].exec(key);
  if (!m) return null;
  const [y, mo, third, h, mi] = m.slice(1).map(Number) as [number, number, number, number?, number?];
  if (mo < 1 || mo > 12) return null;
  let probe: Date;
  if (type === 'monthly') probe = localToInstant(offsetMinutes, y, mo - 1, 1);
  else if (type === 'semiMonthly') probe = localToInstant(offsetMinutes, y, mo - 1, third === 1 ? 1 : 16);
  else probe = localToInstant(offsetMinutes, y, mo - 1, third, h ?? 0, mi ?? 0);
  const period = periodOf(probe, type, offsetMinutes);
  // Round trip: rejects 2026-02-30, hour 24, minute 07, a Tuesday as a week key.
  return period.key === key && period.start.getTime() === probe.getTime() ? period : null;
}

/** A period can be settled once it is over: its end is at or before `now`. A period still open or in the future cannot. */
export function isPeriodClosed(period: Period, now: Date | number): boolean {
  return period.end.getTime() <= (typeof now === 'number' ? now : now.getTime());
}
