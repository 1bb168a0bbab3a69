import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RG_COOLING_DURATIONS, RG_LIMIT_KINDS, RG_PERIODS, RG_SELF_DURATIONS, exclusionEnd, type TRgLimitKind, type TRgPeriod } from '@portal/contracts/api/rg';
import { isApiError } from '../../../lib/api';
import { errorMessage } from '../../../lib/field-message';
import { minorPerMajor } from '@portal/contracts/domain/money';
import { useCurrency, useDateTime, useMoney } from '../../../lib/use-money';
import { FormMessage } from '../../../ui/form-field';
import { useConfirmLimit, useExclude, useRgEvents, useRgState, useSessionSettings, useSetLimit } from '../api/rg';
import '../../../ui/cashier.css';

/** Whole currency units typed by the player -> minor units (the currency's `exponent`); null for an empty field (no limit), NaN for junk. */
/** The amount typed, in minor units: null (empty) removes the limit; NaN for anything but a whole amount above 0 (0 read as "invalid input" from the server). */
export const toMinor = (s: string, exponent: number) => (s.trim() === '' ? null : /^\d{1,9}$/.test(s.trim()) && Number(s.trim()) > 0 ? Number(s.trim()) * minorPerMajor(exponent) : Number.NaN);

/**
 * A higher limit (or a removal) can be confirmed only from its `pendingFrom` (24 hours after the request):
 * before then the row says from when and offers no Confirm button, which the server would refuse
 * (409 RG_INCREASE_PENDING, shown at the top of the page, away from the button).
 */
export const isConfirmable = (pendingFrom: string | null, nowMs: number) => pendingFrom !== null && Date.parse(pendingFrom) <= nowMs;

/**
 * Member centre `responsibleGaming`: limits (deposit, loss, wager per day, week, month), cooling-off
 * and self-exclusion, reality check and session time limit, and the player's RG events.
 */
/**
 * What a limit event of the history changed: kind, period and amount (old -> new when there was one),
 * e.g. "Wagers · Day · ₱2,000.00 → ₱9,000.00"; a reality-check / session-time event, the two choices
 * ("Remind me every: 30 minutes · End my session after: Off"). The history said only "Limit set · by
 * you". Other events: ''.
 */
export function limitEventDetail(e: { action: string; before: unknown; after: unknown }, label: (key: string, opts?: { count: number }) => string, money: (minor: number) => string): string {
  if (e.action === 'rg.session.set') {
    const s = e.after as { realityCheckMinutes?: number | null; sessionLimitMinutes?: number | null } | null;
    if (!s || !('realityCheckMinutes' in s) || !('sessionLimitMinutes' in s)) return '';
    const minutes = (m: number | null | undefined) => (m ? label('rg_minutes', { count: m }) : label('rg_off'));
    return `${label('rg_reality_check')}: ${minutes(s.realityCheckMinutes)} · ${label('rg_session_limit')}: ${minutes(s.sessionLimitMinutes)}`;
  }
  if (!e.action.startsWith('rg.limit.')) return '';
  const a = e.after as { kind?: string; period?: string; amount?: number | null } | null;
  const b = e.before as { amount?: number | null } | null | undefined;
  if (!a?.kind || !a.period) return '';
  const amount = (x: number | null | undefined) => (x === null || x === undefined ? label('rg_none') : money(x));
  const change = b && b.amount !== undefined && b.amount !== a.amount ? `${amount(b.amount)} → ${amount(a.amount)}` : amount(a.amount);
  return `${label(`rg_kind_${a.kind}`)} · ${label(`rg_period_${a.period}`)} · ${change}`;
}

/**
 * The breaks the player may still take: all of them without an exclusion; during one, only those that
 * end after it (a longer one extends it; the server refuses a shorter one), none during one without an end.
 */
export function breaksOffered(exclusion: { endsAt: string | null } | null | undefined, nowMs: number) {
  const longer = (d: Parameters<typeof exclusionEnd>[1]) =>
    !exclusion || (exclusion.endsAt !== null && exclusionEnd(new Date(nowMs), d).getTime() > Date.parse(exclusion.endsAt));
  return { cooling: RG_COOLING_DURATIONS.filter(longer), self: RG_SELF_DURATIONS.filter(longer) };
}

/** The choices offered, with the one in force among them when it is another (set elsewhere): the select showed blank. */
export const withCurrent = (choices: readonly number[], current: number | null | undefined) =>
  (current == null || choices.includes(current) ? [...choices] : [...choices, current].sort((a, b) => a - b));

export function RgPanel() {
  // The lazily loaded 'rg' texts: useTranslation suspends until they are there (i18n.ts, useSuspense).
  const { t } = useTranslation('rg');
  const money = useMoney();
  const { exponent } = useCurrency();
  const dateTime = useDateTime();
  const state = useRgState();
  const events = useRgEvents();
  const setLimit = useSetLimit();
  const confirm = useConfirmLimit();
  const exclude = useExclude();
  const session = useSessionSettings();
  const [kind, setKind] = useState<TRgLimitKind>('loss');
  const [period, setPeriod] = useState<TRgPeriod>('day');
  const [amount, setAmount] = useState('');
  const [localError, setLocalError] = useState<string | null>(null);
  const [pendingExclusion, setPendingExclusion] = useState<string | null>(null);
  // The question takes the focus when it appears (a keyboard or screen-reader user is on the button that asked it).
  const confirmRef = useRef<HTMLDivElement>(null);
  // ... and gives it back to that button when cancelled.
  const openerRef = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (pendingExclusion) confirmRef.current?.focus();
  }, [pendingExclusion]);
  const askExclusion = (what: string) => {
    openerRef.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setPendingExclusion(what);
  };
  const cancelExclusion = () => {
    setPendingExclusion(null);
    openerRef.current?.focus();
  };
  const s = state.data;
  const breaks = breaksOffered(s?.exclusion, Date.now());
  // Each refusal next to what was asked (at 390 px one at the top of the page was a screen away from the button).
  const failure = state.error;
  const limitFailure = setLimit.error ?? confirm.error;
  // During a break limits only get stricter: say that, not the general "play and deposits are closed".
  const limitProblem = (e: unknown) => (isApiError(e) && e.code === 'RG_EXCLUDED' ? { key: 'rg:rg_loosen_excluded' } : errorMessage(e));
  const appliesFrom = [setLimit.error, confirm.error].map((e) => (isApiError(e) ? (e.value as { appliesFrom?: string } | undefined)?.appliesFrom : undefined)).find(Boolean);

  const submitLimit = () => {
    const v = toMinor(amount, exponent);
    if (Number.isNaN(v)) {
      // The answer of the last save is not left beside this refusal.
      setLimit.reset();
      return setLocalError(t('rg_amount_invalid'));
    }
    setLocalError(null);
    setLimit.mutate({ kind, period, amount: v });
  };
  return (
    <div className="mc-stack" data-testid="rg-panel">
      <div className="mc-card">
        <h1 className="mc-title">{t('rg_title')}</h1>
        <p className="cx-muted">{t('rg_intro')}</p>
        {failure && <FormMessage message={errorMessage(failure)} />}
        {appliesFrom && <p className="form-notice" data-testid="rg-applies-from">{t('rg_applies_from', { when: dateTime(appliesFrom) })}</p>}
      </div>

      {s?.exclusion && (
        <div className="mc-card rg-excluded" role="status" data-testid="rg-excluded">
          <h2 className="mc-title">{t('rg_excluded_title', { kind: t(`rg_xkind_${s.exclusion.kind}`) })}</h2>
          <p>{s.exclusion.endsAt ? t('rg_excluded_until', { when: dateTime(s.exclusion.endsAt) }) : t('rg_excluded_open')}</p>
          <p className="cx-muted">{t('rg_excluded_text')}</p>
        </div>
      )}

      <div className="mc-card">
        <h2 className="mc-title">{t('rg_limits')}</h2>
        {/* Scrolls on its own where it is wider than the card (at 768 px it pushed the whole panel off the screen). */}
        <div className="cx-table-wrap">
        <table className="cx-table" data-testid="rg-limits">
          <thead><tr><th>{t('rg_kind')}</th><th>{t('rg_period')}</th><th>{t('rg_limit')}</th><th>{t('rg_used')}</th><th>{t('rg_pending')}</th></tr></thead>
          <tbody>
            {(s?.limits ?? []).map((l) => (
              <tr key={`${l.kind}-${l.period}`} data-testid={`rg-limit-${l.kind}-${l.period}`}>
                <td data-label={t('rg_kind')}>{t(`rg_kind_${l.kind}`)}</td>
                <td data-label={t('rg_period')}>{t(`rg_period_${l.period}`)}</td>
                <td data-label={t('rg_limit')}>{l.amount === null ? t('rg_none') : money(l.amount)}</td>
                <td data-label={t('rg_used')}>{money(l.used)}</td>
                <td data-label={t('rg_pending')}>
                  {l.pendingFrom ? (
                    <>
                      {l.pendingRemove ? t('rg_none') : money(l.pendingAmount ?? 0)} · {t('rg_applies_from', { when: dateTime(l.pendingFrom) })}{' '}
                      {isConfirmable(l.pendingFrom, Date.now()) && <button type="button" className="btn btn--outline btn--sm" onClick={() => confirm.mutate({ kind: l.kind, period: l.period })} data-testid="rg-confirm">{t('rg_confirm')}</button>}
                    </>
                  ) : '—'}
                </td>
              </tr>
            ))}
            {s && s.limits.length === 0 && <tr><td colSpan={5} className="cx-muted">{t('rg_no_limits')}</td></tr>}
          </tbody>
        </table>
        </div>
        <div className="cx-form">
          <label>{t('rg_kind')} <select value={kind} onChange={(e) => setKind(e.target.value as TRgLimitKind)} data-testid="rg-kind">{RG_LIMIT_KINDS.map((k) => <option key={k} value={k}>{t(`rg_kind_${k}`)}</option>)}</select></label>
          <label>{t('rg_period')} <select value={period} onChange={(e) => setPeriod(e.target.value as TRgPeriod)} data-testid="rg-period">{RG_PERIODS.map((p) => <option key={p} value={p}>{t(`rg_period_${p}`)}</option>)}</select></label>
          <label>{t('rg_amount')} <input inputMode="numeric" value={amount} onChange={(e) => setAmount(e.target.value)} aria-describedby="rg-amount-hint" data-testid="rg-amount" /></label>
          <button type="button" className="btn btn--primary" disabled={setLimit.isPending} onClick={submitLimit} data-testid="rg-set-limit">{t('rg_set_limit')}</button>
        </div>
        {/* The rule under the field, not in its placeholder (cut off on a phone, gone once typing starts). */}
        <p className="cx-muted small" id="rg-amount-hint">{t('rg_amount_hint')}</p>
        {localError && <p className="form-error" role="alert">{localError}</p>}
        {limitFailure && <FormMessage message={limitProblem(limitFailure)} />}
        {setLimit.data && <p className="form-notice" data-testid="rg-limit-result">{setLimit.data.applied ? t('rg_applied') : t('rg_requested', { when: dateTime(setLimit.data.limit.pendingFrom ?? '') })}</p>}
        <p className="cx-muted">{t('rg_rules')}</p>
      </div>

      <div className="mc-card">
        <h2 className="mc-title">{t('rg_session')}</h2>
        <p className="cx-muted">{s?.sessionStartedAt ? t('rg_session_figures', { since: dateTime(s.sessionStartedAt), net: money(s.sessionNet) }) : ''}</p>
        <div className="cx-form">
          <label>{t('rg_reality_check')} <select value={s?.realityCheckMinutes ?? ''} data-testid="rg-reality" onChange={(e) => session.mutate({ realityCheckMinutes: e.target.value ? Number(e.target.value) : null, sessionLimitMinutes: s?.sessionLimitMinutes ?? null })}>
            <option value="">{t('rg_off')}</option>{withCurrent([15, 30, 60, 120], s?.realityCheckMinutes).map((m) => <option key={m} value={m}>{t('rg_minutes', { count: m })}</option>)}
          </select></label>
          <label>{t('rg_session_limit')} <select value={s?.sessionLimitMinutes ?? ''} data-testid="rg-session-limit" onChange={(e) => session.mutate({ realityCheckMinutes: s?.realityCheckMinutes ?? null, sessionLimitMinutes: e.target.value ? Number(e.target.value) : null })}>
            <option value="">{t('rg_off')}</option>{withCurrent([30, 60, 120, 240], s?.sessionLimitMinutes).map((m) => <option key={m} value={m}>{t('rg_minutes', { count: m })}</option>)}
          </select></label>
        </div>
        {session.isSuccess && <p className="form-notice" role="status" data-testid="rg-session-saved">{t('rg_session_saved')}</p>}
        {session.error && <FormMessage message={limitProblem(session.error)} />}
      </div>

      {(breaks.cooling.length > 0 || breaks.self.length > 0) && <div className="mc-card" data-testid="rg-breaks">
        <h2 className="mc-title">{t(s?.exclusion ? 'rg_extend' : 'rg_exclusion')}</h2>
        <p className="cx-muted">{t(s?.exclusion ? 'rg_extend_text' : 'rg_exclusion_text')}</p>
        <div className="cx-form">
          {breaks.cooling.map((d) => <button key={d} type="button" className="btn btn--outline btn--wrap" onClick={() => askExclusion(`cooling:${d}`)} data-testid={`rg-cooling-${d}`}>{t('rg_cooling', { d: t(`rg_d_${d}`) })}</button>)}
          {breaks.self.map((d) => <button key={d} type="button" className="btn btn--outline btn--wrap" onClick={() => askExclusion(`self:${d}`)} data-testid={`rg-self-${d}`}>{t('rg_self', { d: t(`rg_d_${d}`) })}</button>)}
        </div>
        {pendingExclusion && (
          <div className="form-notice" role="alertdialog" aria-labelledby="rg-exclude-warning" tabIndex={-1} data-testid="rg-exclude-confirm"
            // Escape is Cancel.
            ref={confirmRef}
            onKeyDown={(e) => { if (e.key === 'Escape') { e.stopPropagation(); cancelExclusion(); } }}>
            <p id="rg-exclude-warning">{t('rg_exclude_warning')}</p>
            <button type="button" className="btn btn--primary" disabled={exclude.isPending} data-testid="rg-exclude-yes" onClick={() => {
              const [k, d] = pendingExclusion.split(':') as ['self' | 'cooling', string];
              exclude.mutate(k === 'self' ? { kind: 'self', duration: d as (typeof RG_SELF_DURATIONS)[number] } : { kind: 'cooling', duration: d as (typeof RG_COOLING_DURATIONS)[number] });
            }}>{t('rg_exclude_yes')}</button>{' '}
            <button type="button" className="btn btn--outline" onClick={cancelExclusion}>{t('rg_cancel')}</button>
          </div>
        )}
        {exclude.error && <FormMessage message={errorMessage(exclude.error)} />}
      </div>}

      <div className="mc-card">
        <h2 className="mc-title">{t('rg_events')}</h2>
        <ul className="msg-list" data-testid="rg-events">
          {(events.data?.list ?? []).map((e) => {
            const detail = limitEventDetail(e, (k, o) => t(k, o ?? {}), money);
            return (
              <li key={e.id} className="msg-item msg-item--read">
                {dateTime(e.at)} · {t(`rg_ev_${e.action.replace(/\./g, '_')}`, { defaultValue: e.action })}
                {detail && ` · ${detail}`} · {t(`rg_by_${e.by}`)}
              </li>
            );
          })}
        </ul>
        {events.data && events.data.list.length === 0 && <p className="cx-muted">{t('rg_no_events')}</p>}
      </div>
    </div>
  );
}
