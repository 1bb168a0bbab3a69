import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorCode } from '@portal/contracts/api/errors';
import { ApiError } from '../../../lib/api';
import { errorMessage, MSG, type FieldErrors, type FieldMessage } from '../../../lib/field-message';
import { homeDialingCode, useRegisterSettings } from '../../../lib/register-settings';
import { FormField, FormMessage } from '../../../ui/form-field';
import { SmsCodeButton } from '../../../ui/sms-code-button';
import { bindEmail, bindMobile, sendBindSms } from '../api/contact';

/** A refusal of the login password belongs to its field; anything else to the form. */
function contactError(err: unknown): { fields: FieldErrors; form: FieldMessage | null } {
  if (err instanceof ApiError && err.code === ErrorCode.OLD_PASSWORD_WRONG) return { fields: { password: { key: 'wallet:login_password_wrong' } }, form: null };
  if (err instanceof ApiError && err.code === ErrorCode.SMS_CODE_INVALID) return { fields: { verificationCode: errorMessage(err) }, form: null };
  return { fields: {}, form: errorMessage(err) };
}

/**
 * Security centre: add or change the mobile number (a code sent to it, then the code and the login
 * password). Reset codes and SMS login use it, so a player who signed up by username can recover the
 * account. Closes itself once saved (the facts above show the new number).
 */
export function MobileForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation('register');
  const queryClient = useQueryClient();
  const settings = useRegisterSettings().data;
  const countries = settings?.countries ?? [];
  const [v, setV] = useState({ countryDialingCode: '', mobileNum: '', verificationCode: '', password: '' });
  const dialing = v.countryDialingCode || homeDialingCode(settings);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<FieldMessage | null>(null);
  const save = useMutation({ mutationFn: bindMobile, onSuccess: () => queryClient.invalidateQueries({ queryKey: ['member', 'info'] }) });
  const set = (name: keyof typeof v) => (x: string) => {
    setV((o) => ({ ...o, [name]: x }));
    setErrors((e) => ({ ...e, [name]: undefined }));
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const next: FieldErrors = {};
    if (!/^\d{7,15}$/.test(v.mobileNum.trim().replace(/[\s-]/g, ''))) next.mobileNum = v.mobileNum.trim() ? MSG.mobileInvalid : MSG.empty;
    if (!v.verificationCode.trim()) next.verificationCode = MSG.empty;
    if (!v.password) next.password = MSG.empty;
    setErrors(next);
    setFormError(null);
    if (Object.keys(next).length > 0) return;
    save.mutate(
      { mobileNum: v.mobileNum.trim().replace(/[\s-]/g, ''), countryDialingCode: dialing, verificationCode: v.verificationCode.trim(), password: v.password },
      {
        onSuccess: onDone,
        onError: (err) => {
          const failed = contactError(err);
          setErrors(failed.fields);
          setFormError(failed.form);
        },
      },
    );
  };
  return (
    <form className="mc-card form" noValidate onSubmit={submit} data-testid="bind-mobile-form">
      <h2 className="mc-subtitle">{t('bind_mobile_title')}</h2>
      <p className="form-notice">{t('bind_mobile_text')}</p>
      <FormField
        name="mobileNum"
        label={t('sec_mobile')}
        type="tel"
        inputMode="tel"
        autoComplete="tel-national"
        maxLength={20}
        required
        value={v.mobileNum}
        onChange={set('mobileNum')}
        error={errors.mobileNum}
        prefix={
          <select className="form-field__select" aria-label={t('country_code')} value={dialing} onChange={(e) => set('countryDialingCode')(e.target.value)}>
            {(countries.length ? countries : [{ countryCode: '', countryDialingCode: dialing }]).map((c) => (
              <option key={c.countryCode || c.countryDialingCode} value={c.countryDialingCode}>
                {c.countryCode} +{c.countryDialingCode}
              </option>
            ))}
          </select>
        }
      />
      <FormField
        name="verificationCode"
        label={t('field_verificationCode')}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={8}
        required
        value={v.verificationCode}
        onChange={set('verificationCode')}
        error={errors.verificationCode}
        addon={<SmsCodeButton mobileNum={v.mobileNum.trim().replace(/[\s-]/g, '')} countryDialingCode={dialing} send={sendBindSms} onError={(m) => setErrors((e) => ({ ...e, mobileNum: m ?? undefined }))} />}
      />
      <FormField name="password" label={t('bind_password')} type="password" autoComplete="current-password" required value={v.password} onChange={set('password')} error={errors.password} />
      <FormMessage message={formError} />
      <div className="mc-actions">
        <button type="submit" className="btn btn--primary" disabled={save.isPending} data-testid="bind-mobile-submit">
          {save.isPending ? t('please_wait') : t('bind_save')}
        </button>
        <button type="button" className="btn btn--ghost" disabled={save.isPending} onClick={onDone}>
          {t('totp_cancel')}
        </button>
      </div>
    </form>
  );
}

/** Security centre: add or change the e-mail address (the login password); password reset links go to it. */
export function EmailForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation('register');
  const queryClient = useQueryClient();
  const [v, setV] = useState({ email: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<FieldMessage | null>(null);
  const save = useMutation({ mutationFn: bindEmail, onSuccess: () => queryClient.invalidateQueries({ queryKey: ['member', 'info'] }) });
  const set = (name: keyof typeof v) => (x: string) => {
    setV((o) => ({ ...o, [name]: x }));
    setErrors((e) => ({ ...e, [name]: undefined }));
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const next: FieldErrors = {};
    if (!v.email.trim()) next.email = MSG.empty;
    else if (!/^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(v.email.trim())) next.email = { key: 'register:bind_email_invalid' };
    if (!v.password) next.password = MSG.empty;
    setErrors(next);
    setFormError(null);
    if (Object.keys(next).length > 0) return;
    save.mutate(
      { email: v.email.trim(), password: v.password },
      {
        onSuccess: onDone,
        onError: (err) => {
          const failed = contactError(err);
          setErrors(failed.fields);
          setFormError(failed.form);
        },
      },
    );
  };
  return (
    <form className="mc-card form" noValidate onSubmit={submit} data-testid="bind-email-form">
      <h2 className="mc-subtitle">{t('bind_email_title')}</h2>
      <p className="form-notice">{t('bind_email_text')}</p>
      <FormField name="email" label={t('sec_email')} type="email" autoComplete="email" maxLength={128} required value={v.email} onChange={set('email')} error={errors.email} />
      <FormField name="password" label={t('bind_password')} type="password" autoComplete="current-password" required value={v.password} onChange={set('password')} error={errors.password} />
      <FormMessage message={formError} />
      <div className="mc-actions">
        <button type="submit" className="btn btn--primary" disabled={save.isPending} data-testid="bind-email-submit">
          {save.isPending ? t('please_wait') : t('bind_save')}
        </button>
        <button type="button" className="btn btn--ghost" disabled={save.isPending} onClick={onDone}>
          {t('totp_cancel')}
        </button>
      </div>
    </form>
  );
}
