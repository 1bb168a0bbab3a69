import type { Dispatch, ReactNode, SetStateAction } from 'react';
import { DATE_SHORTCUTS, pastDays, type DateRange } from '../lib/date-range';
import { useBrandOffset } from '../lib/whitelabel';
import { FIRST_DAY } from '@portal/contracts/api/instant';

type Props = {
  draft: DateRange;
  setDraft: Dispatch<SetStateAction<DateRange>>;
  apply: (r: DateRange) => void;
  active: number | undefined;
  labels: { pastDays: (days: number) => string; from: string; to: string; search: string };
  /** data-testid prefix: `<prefix>-past-7`, `<prefix>-from`, `<prefix>-to`, `<prefix>-search`. */
  testId: string;
  /** More filters, shown in the form before the search button. */
  children?: ReactNode;
};

/** Past 7 / 30 days shortcuts and a from-to form, shared by the record pages. */
export function DateRangeFilter({ draft, setDraft, apply, active, labels, testId, children }: Props) {
  const offset = useBrandOffset();
  return (
    <>
      <div className="cx-head">
        <div className="cx-chips">
          {DATE_SHORTCUTS.map((d) => (
            <button key={d} type="button" className="cx-chip" aria-pressed={active === d} onClick={() => apply(pastDays(d, offset))} data-testid={`${testId}-past-${d}`}>
              {labels.pastDays(d)}
            </button>
          ))}
        </div>
      </div>
      <form
        className="records-range"
        onSubmit={(e) => {
          e.preventDefault();
          apply(draft);
        }}
      >
        <label className="form-field">
          <span className="form-field__label">{labels.from}</span>
          <input type="date" className="form-field__input" value={draft.from} min={FIRST_DAY} max={draft.to} onChange={(e) => setDraft((d) => ({ ...d, from: e.target.value }))} data-testid={`${testId}-from`} />
        </label>
        <label className="form-field">
          <span className="form-field__label">{labels.to}</span>
          <input type="date" className="form-field__input" value={draft.to} min={draft.from || FIRST_DAY} onChange={(e) => setDraft((d) => ({ ...d, to: e.target.value }))} data-testid={`${testId}-to`} />
        </label>
        {children}
        <button type="submit" className="btn btn--primary" disabled={!draft.from || !draft.to} data-testid={`${testId}-search`}>
          {labels.search}
        </button>
      </form>
    </>
  );
}
