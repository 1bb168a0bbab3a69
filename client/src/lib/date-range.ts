import { useState } from 'react';

export type DateRange = { from: string; to: string };

/** yyyy-MM-dd of a local date. */
export function ymd(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

/** The past `days` days up to today (today counts as one). */
export function pastDays(days: number, today = new Date()): DateRange {
  const from = new Date(today);
  from.setDate(from.getDate() - (days - 1));
  return { from: ymd(from), to: ymd(today) };
}

/** The record pages' shortcuts (spec section 9: past 7 and 30 days). */
export const DATE_SHORTCUTS = [7, 30] as const;

/**
 * A date range being edited (draft) and the one applied to the query; applying orders the ends and
 * calls `onApply` (e.g. back to page 1). `active` is the shortcut the applied range equals, if any.
 */
export function useDateRange(initialDays: number, onApply: () => void) {
  const [range, setRange] = useState(() => pastDays(initialDays));
  const [draft, setDraft] = useState(range);
  const apply = (r: DateRange) => {
    const ordered = r.from <= r.to ? r : { from: r.to, to: r.from };
    setDraft(ordered);
    setRange(ordered);
    onApply();
  };
  const active = DATE_SHORTCUTS.find((d) => {
    const p = pastDays(d);
    return p.from === range.from && p.to === range.to;
  });
  return { range, draft, setDraft, apply, active };
}
