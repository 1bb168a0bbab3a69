import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FIRST_DAY } from '@portal/contracts/api/instant';
import { gmtLabel } from '../../../lib/brand-clock';
import type { DateRange } from '../../../lib/date-range';
import { REPORT_SHORTCUTS, type ReportShortcut } from './report-range';

type Props = {
  draft: DateRange;
  setDraft: (r: DateRange) => void;
  pick: (d: ReportShortcut) => void;
  apply: (r: DateRange) => void;
  active: ReportShortcut | undefined;
  offset: number;
  testId: string;
  /** More filters, before the search button. */
  children?: ReactNode;
};

/** Today / past 7 / past 30 days and a custom from-to, on the merchant's calendar (its GMT offset shown). */
export function ReportRangeFilter({ draft, setDraft, pick, apply, active, offset, testId, children }: Props) {
  const { t } = useTranslation('agent-office');
  return (
    <div className="ao-range">
      <div className="cx-chips" role="group" aria-label={t('range.label')}>
        {REPORT_SHORTCUTS.map((d) => (
          <button key={d} type="button" className="cx-chip" aria-pressed={active === d} onClick={() => pick(d)} data-testid={`${testId}-range-${d}`}>
            {d === 1 ? t('range.today') : t('range.past_days', { count: d })}
          </button>
        ))}
        <span className="ao-range__tz" data-testid={`${testId}-tz`}>{t('range.timezone', { gmt: gmtLabel(offset) })}</span>
      </div>
      <form
        className="records-range"
        onSubmit={(e) => {
          e.preventDefault();
          apply(draft);
        }}
      >
        <label className="form-field">
          <span className="form-field__label">{t('range.from')}</span>
          <input type="date" className="form-field__input" value={draft.from} min={FIRST_DAY} max={draft.to || undefined} onChange={(e) => setDraft({ ...draft, from: e.target.value })} data-testid={`${testId}-from`} />
        </label>
        <label className="form-field">
          <span className="form-field__label">{t('range.to')}</span>
          <input type="date" className="form-field__input" value={draft.to} min={draft.from || FIRST_DAY} onChange={(e) => setDraft({ ...draft, to: e.target.value })} data-testid={`${testId}-to`} />
        </label>
        {children}
        <button type="submit" className="btn btn--primary" disabled={!draft.from || !draft.to} data-testid={`${testId}-search`}>
          {t('search')}
        </button>
      </form>
    </div>
  );
}
