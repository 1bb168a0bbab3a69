import type { TFunction } from 'i18next';

/**
 * A settlement period's key (contracts/src/domain/agent-periods.ts: D2026-03-15, W2026-03-09 the
 * Monday, S2026-03-1 / S2026-03-2 the halves, M2026-03, H2026-03-15T13, F2026-03-15T13:05) as people
 * read it: the date of a daily period, the first and last day of a week, half-month or month, the
 * hour span of an hourly or 5-minute period. The key is already on the merchant's calendar, so this
 * is calendar arithmetic only (UTC getters, no time zone). An unknown key is shown as it is.
 */
export function periodLabel(t: TFunction, key: string): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const ymd = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const range = (from: Date, to: Date) => t('agents:payouts.periodLabel.range', { from: ymd(from), to: ymd(to) });
  let m: RegExpExecArray | null;
  if ((m = /^D(\d{4})-(\d{2})-(\d{2})$/.exec(key))) return `${m[1]}-${m[2]}-${m[3]}`;
  if ((m = /^W(\d{4})-(\d{2})-(\d{2})$/.exec(key))) {
    const start = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!));
    return range(start, new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]! + 6)));
  }
  if ((m = /^S(\d{4})-(\d{2})-([12])$/.exec(key))) {
    const [y, mo] = [+m[1]!, +m[2]! - 1];
    return m[3] === '1' ? range(new Date(Date.UTC(y, mo, 1)), new Date(Date.UTC(y, mo, 15))) : range(new Date(Date.UTC(y, mo, 16)), new Date(Date.UTC(y, mo + 1, 0)));
  }
  if ((m = /^M(\d{4})-(\d{2})$/.exec(key))) {
    const [y, mo] = [+m[1]!, +m[2]! - 1];
    return range(new Date(Date.UTC(y, mo, 1)), new Date(Date.UTC(y, mo + 1, 0)));
  }
  if ((m = /^H(\d{4})-(\d{2})-(\d{2})T(\d{2})$/.exec(key))) {
    return t('agents:payouts.periodLabel.hours', { date: `${m[1]}-${m[2]}-${m[3]}`, from: `${m[4]}:00`, to: `${pad((+m[4]! + 1) % 24)}:00` });
  }
  if ((m = /^F(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(key))) {
    const end = +m[4]! * 60 + +m[5]! + 5;
    return t('agents:payouts.periodLabel.hours', { date: `${m[1]}-${m[2]}-${m[3]}`, from: `${m[4]}:${m[5]}`, to: `${pad(Math.floor(end / 60) % 24)}:${pad(end % 60)}` });
  }
  return key;
}
