import { useState } from 'react';
import { pastDays, type DateRange } from '../../../lib/date-range';
import { useBrandOffset } from '../../../lib/whitelabel';

/** The agent reports' shortcuts: today, past 7 and past 30 days (today counts as one day). */
export const REPORT_SHORTCUTS = [1, 7, 30] as const;
export type ReportShortcut = (typeof REPORT_SHORTCUTS)[number];

/** The shortcut a range equals on the merchant's calendar, or undefined for a custom range. */
export function activeShortcut(range: DateRange, offsetMinutes: number, now = Date.now()): ReportShortcut | undefined {
  return REPORT_SHORTCUTS.find((d) => {
    const p = pastDays(d, offsetMinutes, now);
    return p.from === range.from && p.to === range.to;
  });
}

/** A custom range with its ends ordered (the date inputs let one pick them either way). */
export function orderRange(r: DateRange): DateRange {
  return r.from <= r.to ? r : { from: r.to, to: r.from };
}

/**
 * The applied range of an agent report (default: today on the merchant's calendar), the draft of the
 * custom form, and `apply` (orders the ends, then `onApply`, e.g. back to page 1).
 */
export function useReportRange(initialDays: ReportShortcut, onApply: () => void = () => {}) {
  const offset = useBrandOffset();
  const [chosen, setChosen] = useState<DateRange | null>(null);
  const [shortcut, setShortcut] = useState<ReportShortcut | null>(initialDays);
  // A shortcut follows the calendar (a page left open past midnight moves to the new day).
  const range = shortcut !== null ? pastDays(shortcut, offset) : (chosen ?? pastDays(initialDays, offset));
  const [draft, setDraft] = useState<DateRange | null>(null);
  const pick = (d: ReportShortcut) => {
    setShortcut(d);
    setDraft(null);
    onApply();
  };
  const apply = (r: DateRange) => {
    const ordered = orderRange(r);
    setChosen(ordered);
    setShortcut(null);
    setDraft(ordered);
    onApply();
  };
  return { range, draft: draft ?? range, setDraft, pick, apply, active: activeShortcut(range, offset), offset };
}
