import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { INVITATION_MAX_QUOTA, type TInvitation } from '@portal/contracts/api/agent-reports';
import type { TFieldRule } from '@portal/contracts/api/auth';
import { ErrorCode } from '@portal/contracts/api/errors';
import { checkField } from '@portal/contracts/domain/registration';
import { isApiError } from '../../../lib/api';
import { errorMessage, problemMessage, serverDetailMessage, type FieldErrors, type FieldMessage } from '../../../lib/field-message';
import { ruleOf, useRegisterSettings } from '../../../lib/register-settings';
import { useDateTime } from '../../../lib/use-money';
import { FormField, FormMessage } from '../../../ui/form-field';
import { useCreateDownline } from '../api/create-downline';
import { useCreateInvitation, useDisableInvitation, useInvitations } from '../api/invitations';

type AccountType = 'player' | 'agent';

/** Register centre: create a downline directly, and invitation links with a quota. */
export function RegisterCentreScreen() {
  const { t } = useTranslation('agent-office');
  return (
    <div className="mc-stack" data-testid="ao-register-centre">
      <h1 className="mc-title">{t('item.registerCenter')}</h1>
      <CreateDownlineCard />
      <InvitationsCard />
    </div>
  );
}

function AccountTypeSelect({ value, onChange, testId }: { value: AccountType; onChange: (v: AccountType) => void; testId: string }) {
  const { t } = useTranslation('agent-office');
  return (
    <label className="form-field">
      <span className="form-field__label">{t('register.account_type')}</span>
      <select className="form-field__input" value={value} onChange={(e) => onChange(e.target.value === 'agent' ? 'agent' : 'player')} data-testid={testId}>
        <option value="player">{t('register.type_player')}</option>
        <option value="agent">{t('register.type_agent')}</option>
      </select>
    </label>
  );
}

/**
 * A new downline's account and password by the merchant's registration rules (username, password),
 * both required: the rules the server applies to POST /wps/agent/downlines (spec section 5).
 */
export function validateNewDownline(rules: { username: TFieldRule; password: TFieldRule }, v: { account: string; password: string }): FieldErrors {
  const errors: FieldErrors = {};
  const a = checkField({ ...rules.username, enabled: true, required: true }, v.account.trim());
  if (a) errors.account = problemMessage(a);
  const p = checkField({ ...rules.password, enabled: true, required: true }, v.password);
  if (p) errors.password = problemMessage(p);
  return errors;
}

/** A refused creation: under the field the server names (its VALIDATION details, a taken account), else for the form. */
export function createDownlineServerErrors(error: unknown): { fields: FieldErrors; form: FieldMessage | null } {
  if (isApiError(error)) {
    const fields: FieldErrors = {};
    for (const d of error.details) if (d.path === 'account' || d.path === 'password' || d.path === 'nickname') fields[d.path] ??= serverDetailMessage(d.message);
    if (Object.keys(fields).length) return { fields, form: null };
    if (error.code === ErrorCode.ACCOUNT_EXISTS) return { fields: { account: errorMessage(error) }, form: null };
  }
  return { fields: {}, form: errorMessage(error) };
}

function CreateDownlineCard() {
  const { t } = useTranslation('agent-office');
  const create = useCreateDownline();
  const settings = useRegisterSettings();
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const [nickname, setNickname] = useState('');
  const [accountType, setAccountType] = useState<AccountType>('player');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [result, setResult] = useState<{ message: FieldMessage; tone: 'error' | 'success' } | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (create.isPending) return;
    const next = validateNewDownline({ username: ruleOf(settings.data, 'username'), password: ruleOf(settings.data, 'password') }, { account, password });
    setErrors(next);
    setResult(null);
    if (Object.keys(next).length > 0) return;
    create.mutate(
      { account: account.trim(), password, accountType, ...(nickname.trim() ? { nickname: nickname.trim() } : {}) },
      {
        onSuccess: (m) => {
          setResult({ message: { key: 'agent-office:register.created', values: { account: m.account } }, tone: 'success' });
          setAccount('');
          setPassword('');
          setNickname('');
        },
        onError: (err) => {
          const { fields, form } = createDownlineServerErrors(err);
          setErrors(fields);
          if (form) setResult({ message: form, tone: 'error' });
        },
      },
    );
  };
  return (
    <form className="mc-card form" onSubmit={submit} data-testid="ao-create-downline" noValidate>
      <h2 className="mc-subtitle">{t('register.create_title')}</h2>
      <div className="ao-form-grid">
        <FormField name="account" label={t('register.account')} value={account} onChange={setAccount} error={errors.account} autoComplete="off" maxLength={64} required />
        <FormField name="password" type="password" label={t('register.password')} value={password} onChange={setPassword} error={errors.password} autoComplete="new-password" maxLength={128} required />
        <FormField name="nickname" label={t('register.nickname')} value={nickname} onChange={setNickname} maxLength={32} />
        <AccountTypeSelect value={accountType} onChange={setAccountType} testId="ao-create-type" />
      </div>
      {result && <FormMessage message={result.message} tone={result.tone} />}
      <div className="mc-actions">
        <button type="submit" className="btn btn--primary" disabled={create.isPending} data-testid="ao-create-submit">
          {create.isPending ? t('working') : t('register.create')}
        </button>
      </div>
    </form>
  );
}

const STATUS_TONE: Record<TInvitation['status'], string> = { active: 'ok', exhausted: 'wait', expired: 'bad', disabled: 'bad' };

function InvitationsCard() {
  const { t } = useTranslation('agent-office');
  const dateTime = useDateTime();
  const list = useInvitations();
  const create = useCreateInvitation();
  const disable = useDisableInvitation();
  const [accountType, setAccountType] = useState<AccountType>('player');
  const [quotaText, setQuotaText] = useState('10');
  const [daysText, setDaysText] = useState('');
  const [message, setMessage] = useState<{ message: FieldMessage; tone: 'error' | 'success' } | null>(null);
  const [copied, setCopied] = useState<number | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const quota = Number(quotaText);
    const days = daysText.trim() === '' ? undefined : Number(daysText);
    if (!Number.isInteger(quota) || quota < 1 || quota > INVITATION_MAX_QUOTA) {
      setMessage({ message: { key: 'agent-office:register.quota_invalid', values: { max: INVITATION_MAX_QUOTA } }, tone: 'error' });
      return;
    }
    if (days !== undefined && (!Number.isInteger(days) || days < 1 || days > 365)) {
      setMessage({ message: { key: 'agent-office:register.days_invalid' }, tone: 'error' });
      return;
    }
    setMessage(null);
    create.mutate(
      { accountType, quota, ...(days !== undefined ? { expiresInDays: days } : {}) },
      {
        onSuccess: () => setMessage({ message: { key: 'agent-office:register.invitation_created' }, tone: 'success' }),
        onError: (err) => setMessage({ message: errorMessage(err), tone: 'error' }),
      },
    );
  };
  const copy = (inv: TInvitation) => {
    void navigator.clipboard?.writeText(inv.link).then(() => setCopied(inv.id), () => setCopied(null));
  };
  const rows = list.data?.list ?? [];
  return (
    <div className="mc-card" data-testid="ao-invitations">
      <h2 className="mc-subtitle">{t('register.invitations_title')}</h2>
      <form className="records-range" onSubmit={submit}>
        <AccountTypeSelect value={accountType} onChange={setAccountType} testId="ao-invite-type" />
        <label className="form-field">
          <span className="form-field__label">{t('register.quota')}</span>
          <input className="form-field__input" inputMode="numeric" value={quotaText} onChange={(e) => setQuotaText(e.target.value)} data-testid="ao-invite-quota" />
        </label>
        <label className="form-field">
          <span className="form-field__label">{t('register.expires_days')}</span>
          <input className="form-field__input" inputMode="numeric" placeholder={t('register.no_expiry')} value={daysText} onChange={(e) => setDaysText(e.target.value)} data-testid="ao-invite-days" />
        </label>
        <button type="submit" className="btn btn--primary" disabled={create.isPending} data-testid="ao-invite-create">
          {t('register.create_invitation')}
        </button>
      </form>
      {message && <FormMessage message={message.message} tone={message.tone} />}
      {list.error && <FormMessage message={errorMessage(list.error)} />}
      {disable.error && <FormMessage message={errorMessage(disable.error)} />}
      <div className="cx-table-wrap">
        <table className="cx-table" data-testid="ao-invitation-list">
          <thead>
            <tr>
              <th>{t('register.code')}</th>
              <th>{t('register.account_type')}</th>
              <th className="cx-num">{t('register.used_quota')}</th>
              <th>{t('col.status')}</th>
              <th>{t('register.expires')}</th>
              <th>{t('register.link')}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {rows.map((inv) => (
              <tr key={inv.id} data-testid={`ao-invitation-${inv.id}`}>
                <td data-label={t('register.code')}><code>{inv.code}</code></td>
                <td data-label={t('register.account_type')}>{t(`register.type_${inv.accountType}`)}</td>
                <td data-label={t('register.used_quota')} className="cx-num">{t('register.used_of', { used: inv.used, quota: inv.quota })}</td>
                <td data-label={t('col.status')}><span className={`cx-pill cx-pill--${STATUS_TONE[inv.status]}`}>{t(`register.status_${inv.status}`)}</span></td>
                <td data-label={t('register.expires')}>{inv.expiresAt ? dateTime(inv.expiresAt) : t('register.no_expiry')}</td>
                <td data-label={t('register.link')}>
                  {/* Flex inside the cell, not on it: a flex td leaves the table's layout and pushed the last column out. */}
                  <div className="ao-link">
                    <span className="ao-link__text" title={inv.link}>{inv.link}</span>
                    <button type="button" className="btn btn--ghost btn--sm" onClick={() => copy(inv)} data-testid={`ao-invitation-copy-${inv.id}`}>
                      {copied === inv.id ? t('register.copied') : t('register.copy')}
                    </button>
                  </div>
                </td>
                <td>
                  {inv.status === 'active' && (
                    <button type="button" className="btn btn--outline btn--sm" disabled={disable.isPending} onClick={() => disable.mutate(inv.id)} data-testid={`ao-invitation-disable-${inv.id}`}>
                      {t('register.disable')}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {list.data && rows.length === 0 && <p className="cx-empty" data-testid="ao-invitations-empty">{t('register.empty')}</p>}
      </div>
    </div>
  );
}
