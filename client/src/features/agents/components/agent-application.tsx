import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AGENT_APPLICATION_LIMITS, AGENT_CHANNELS, agentApplicationCalls, type TAgentApplication } from '@portal/contracts/api/agent-applications';
import { call } from '../../../lib/api';
import { errorMessage, type FieldMessage } from '../../../lib/field-message';
import { openPopup } from '../../../lib/popups';
import { useDateTime } from '../../../lib/use-money';
import { useRealtimeEvent } from '../../../realtime/realtime-context';
import { FormField, FormMessage } from '../../../ui/form-field';
import { useAuth } from '../../auth/hooks/use-auth';

const MINE_KEY = ['agents', 'application', 'mine'] as const;
type Channel = (typeof AGENT_CHANNELS)[number];
type Form = { contactName: string; contact: string; channel: Channel; audience: string };
const EMPTY: Form = { contactName: '', contact: '', channel: 'social', audience: '' };

/** The form's own checks (the server's rules: ZAgentApplicationBody), said at each field. */
export function applicationProblems(f: Form): Partial<Record<keyof Form, FieldMessage>> {
  const p: Partial<Record<keyof Form, FieldMessage>> = {};
  if (f.contactName.trim().length < 2) p.contactName = { key: 'agents:apply.name_problem' };
  if (f.contact.trim().length < 3) p.contact = { key: 'agents:apply.contact_problem' };
  if (f.audience.trim().length < 10) p.audience = { key: 'agents:apply.audience_problem', values: { min: 10 } };
  return p;
}

/**
 * The agent page's affiliate application: a guest is asked to sign in as a player; a player without an
 * upline fills the form; then the application's status (waiting, approved, rejected with the operator's
 * reason, and a new application after a rejection). The decision arrives as a message, which refreshes it.
 */
export function AgentApplication() {
  const { t } = useTranslation('agents');
  const { isLogin, isAgent, isTrial } = useAuth();
  const formatDateTime = useDateTime();
  const qc = useQueryClient();
  const mine = useQuery({ queryKey: MINE_KEY, queryFn: ({ signal }) => call(agentApplicationCalls.mine, { signal }), enabled: isLogin && !isTrial });
  useRealtimeEvent('message.received', (e) => {
    if (e.payload.kind === 'agent_application_approved' || e.payload.kind === 'agent_application_rejected') void qc.invalidateQueries({ queryKey: MINE_KEY });
  });
  const apply = useMutation({
    mutationFn: (b: Form) => call(agentApplicationCalls.apply, { body: b }),
    // A refusal too: applied meanwhile from elsewhere (CONFLICT), or made an agent: the status shows it
    // (the form stayed, and Send gave the same refusal again).
    onSettled: () => qc.invalidateQueries({ queryKey: MINE_KEY }),
  });
  const [form, setForm] = useState<Form>(EMPTY);
  const [isTried, setTried] = useState(false);
  const [isApplyingAgain, setApplyingAgain] = useState(false);

  if (isLogin && isAgent) return null;
  const a: TAgentApplication | null = mine.data?.application ?? null;
  const problems = applicationProblems(form);
  const showForm = isLogin && !isTrial && mine.data?.canApply === true && (a === null || isApplyingAgain);
  return (
    <section className="agent-apply" aria-labelledby="agent-apply-title" data-testid="agent-apply">
      <h2 id="agent-apply-title" className="agent-apply__title">{t('apply.title')}</h2>
      {!isLogin || isTrial ? (
        <>
          <p className="muted">{t('apply.sign_in_first')}</p>
          <div className="agent-apply__actions">
            <button type="button" className="btn btn--primary btn--sm" onClick={() => openPopup('loginPopupModal')} data-testid="agent-apply-login">{t('apply.log_in')}</button>
            <button type="button" className="btn btn--ghost btn--sm" onClick={() => openPopup('registerModal')}>{t('apply.register')}</button>
          </div>
        </>
      ) : mine.isPending ? (
        <p className="muted" role="status">{t('common:loading')}</p>
      ) : mine.isError ? (
        <FormMessage message={errorMessage(mine.error)} />
      ) : showForm ? (
        <form
          className="agent-apply__form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            setTried(true);
            apply.reset();
            if (Object.keys(problems).length > 0) return;
            apply.mutate(form, { onSuccess: () => { setApplyingAgain(false); setTried(false); setForm(EMPTY); } });
          }}
          data-testid="agent-apply-form"
        >
          <p className="muted">{t('apply.lead')}</p>
          <FormField name="contactName" label={t('apply.name')} value={form.contactName} onChange={(v) => setForm({ ...form, contactName: v })} required maxLength={AGENT_APPLICATION_LIMITS.contactName} autoComplete="name" error={isTried ? problems.contactName : undefined} />
          <FormField name="contact" label={t('apply.contact')} hint={t('apply.contact_hint')} value={form.contact} onChange={(v) => setForm({ ...form, contact: v })} required maxLength={AGENT_APPLICATION_LIMITS.contact} error={isTried ? problems.contact : undefined} />
          <label className="form-field">
            <span className="form-field__label">{t('apply.channel')}</span>
            <select className="form-field__select" value={form.channel} onChange={(e) => setForm({ ...form, channel: e.target.value as Channel })} data-testid="agent-apply-channel">
              {AGENT_CHANNELS.map((c) => <option key={c} value={c}>{t(`apply.channel_${c}`)}</option>)}
            </select>
          </label>
          <label className={`form-field${isTried && problems.audience ? ' has-error' : ''}`}>
            <span className="form-field__label">{t('apply.audience')}<span className="form-field__req" aria-hidden="true">*</span></span>
            <textarea className="form-field__input agent-apply__textarea" value={form.audience} onChange={(e) => setForm({ ...form, audience: e.target.value })} required rows={4}
              maxLength={AGENT_APPLICATION_LIMITS.audience} aria-invalid={isTried && problems.audience ? true : undefined} aria-describedby={isTried && problems.audience ? 'agent-apply-audience-error' : undefined} data-testid="agent-apply-audience" />
            {isTried && problems.audience && <p className="form-field__error" id="agent-apply-audience-error" role="alert">{t('apply.audience_problem', { min: 10 })}</p>}
          </label>
          {apply.error && <FormMessage message={errorMessage(apply.error)} />}
          <button type="submit" className="btn btn--primary btn--block" disabled={apply.isPending} data-testid="agent-apply-submit">{t('apply.submit')}</button>
        </form>
      ) : a ? (
        <div className="agent-apply__status" data-testid="agent-apply-status" data-status={a.status}>
          <p><strong>{t(`apply.status_${a.status}`)}</strong></p>
          <p className="muted">{t('apply.sent_at', { at: formatDateTime(a.createdAt) })}</p>
          {a.status === 'rejected' && a.reason && <p data-testid="agent-apply-reason">{t('apply.reason', { reason: a.reason })}</p>}
          {/* Approved: the page's member info is a player's until it reloads. */}
          {a.status === 'approved' && <a className="btn btn--primary btn--block" href="/agentHome" data-testid="agent-apply-open">{t('apply.open_centre')}</a>}
          {a.status === 'rejected' && mine.data?.canApply && (
            <button type="button" className="btn btn--ghost btn--sm" onClick={() => setApplyingAgain(true)} data-testid="agent-apply-again">{t('apply.again')}</button>
          )}
        </div>
      ) : (
        <p className="muted" data-testid="agent-apply-closed">{t('apply.has_upline')}</p>
      )}
    </section>
  );
}
