import { useState, type Dispatch, type SetStateAction } from 'react';
import { merchantClock } from '@portal/contracts/domain/registration';
import { RECORDS_MAX_RANGE_DAYS } from '@portal/contracts/api/wallet';
import { useBrandOffset } from './whitelabel';

export type DateRange = { from: string; to: string };

const DAY_MS = 86_400_000;

/** yyyy-MM-dd of a date's UTC fields. */
export function ymd(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())}`;
}

/**
 * The past `days` days up to today (today counts as one), as dates on the merchant's clock
 * (`offsetMinutes` east of UTC): the server reads yyyy-MM-dd in the merchant's time zone, so a
 * browser in another zone must not pick its own calendar day.
 */
export function pastDays(days: number, offsetMinutes: number, now = Date.now()): DateRange {
  const today = merchantClock(offsetMinutes, now).getTime();
  return { from: ymd(new Date(today - (days - 1) * DAY_MS)), to: ymd(new Date(today)) };
}

/**
 * A range as the records calls search it: ends in order, and at most `maxDays` days (both ends
 * counted) ending on `to`. The server searches no further back; the form shows the dates searched
 * instead of a start the search quietly left out.
 */
export function searchedRange(r: DateRange, maxDays = RECORDS_MAX_RANGE_DAYS): DateRange {
  const ordered = r.from <= r.to ? r : { from: r.to, to: r.from };
  const to = Date.parse(`${ordered.to}T00:00:00Z`);
  const from = Date.parse(`${ordered.from}T00:00:00Z`);
  if (Number.isNaN(to) || Number.isNaN(from) || to - from < maxDays * DAY_MS) return ordered;
  return { from: ymd(new Date(to - (maxDays - 1) * DAY_MS)), to: ordered.to };
}

/** The record pages' shortcuts (spec section 9: past 7 and 30 days). */
export const DATE_SHORTCUTS = [7, 30] as const;

/**
 * A date range being edited (draft) and the one applied to the query; applying orders the ends and
 * calls `onApply` (e.g. back to page 1). Until one is applied, the range is the past `initialDays`
 * on the merchant's clock. `active` is the shortcut the applied range equals, if any.
 */
export function useDateRange(initialDays: number, onApply: () => void) {
  const offset = useBrandOffset();
  const [chosen, setChosen] = useState<DateRange | null>(null);
  const range = chosen ?? pastDays(initialDays, offset);
  const [edited, setEdited] = useState<DateRange | null>(null);
  const draft = edited ?? range;
  const setDraft: Dispatch<SetStateAction<DateRange>> = (u) => setEdited((prev) => (typeof u === 'function' ? u(prev ?? range) : u));
  const apply = (r: DateRange) => {
    const ordered = searchedRange(r);
    setEdited(ordered);
    setChosen(ordered);
    onApply();
  };
  const active = DATE_SHORTCUTS.find((d) => {
    const p = pastDays(d, offset);
    return p.from === range.from && p.to === range.to;
  });
  return { range, draft, setDraft, apply, active };
}
