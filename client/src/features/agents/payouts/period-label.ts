import type { TFunction } from 'i18next';
import { PERIOD_TYPES, parsePeriodKey } from '@portal/contracts/domain/agent-periods';

const pad = (n: number) => String(n).padStart(2, '0');
const ymd = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
const hm = (d: Date) => `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;

/**
 * A settlement period's key (contracts/src/domain/agent-periods.ts: D2026-03-15, W2026-03-09 the
 * Monday, S2026-03-1 / S2026-03-2 the halves, M2026-03, H2026-03-15T13, F2026-03-15T13:05) as people
 * read it: the date of a daily period, the first and last day of a week, half-month or month, the
 * hour span of an hourly or 5-minute period. The key is read by the contracts' own parsePeriodKey; it
 * is already on the merchant's calendar, so it is parsed at offset 0, where the period's UTC fields are
 * the merchant's wall clock. An unknown key is shown as it is.
 */
export function periodLabel(t: TFunction, key: string): string {
  for (const type of PERIOD_TYPES) {
    const p = parsePeriodKey(key, type, 0);
    if (!p) continue;
    if (type === 'daily') return ymd(p.start);
    if (type === 'hourly' || type === 'fiveMinutes') return t('agents:payouts.periodLabel.hours', { date: ymd(p.start), from: hm(p.start), to: hm(p.end) });
    return t('agents:payouts.periodLabel.range', { from: ymd(p.start), to: ymd(new Date(p.end.getTime() - 1)) });
  }
  return key;
}
