import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorCode } from '@portal/contracts/api/errors';
import { compilePattern, patternById } from '@portal/contracts/domain/patterns';
import { ApiError } from '../../../lib/api';
import { errorMessage, MSG, type FieldErrors, type FieldMessage } from '../../../lib/field-message';
import { homeDialingCode, useRegisterSettings } from '../../../lib/register-settings';
import { DialingCodeSelect } from '../../../ui/dialing-code-select';
import { FormField, FormMessage } from '../../../ui/form-field';
import { SmsCodeButton } from '../../../ui/sms-code-button';
import { bindEmail, bindMobile, sendBindSms } from '../api/contact';

/** The server's e-mail rule (pattern 3 of the registration catalogue). */
const EMAIL = compilePattern(patternById(3)!.pattern);

/** A refusal of the login password or of the code belongs to its field; anything else to the form. */
function contactError(err: unknown): { fields: FieldErrors; form: FieldMessage | null } {
  if (err instanceof ApiError && err.code === ErrorCode.OLD_PASSWORD_WRONG) return { fields: { password: { key: 'wallet:login_password_wrong' } }, form: null };
  if (err instanceof ApiError && err.code === ErrorCode.SMS_CODE_INVALID) return { fields: { verificationCode: errorMessage(err) }, form: null };
  return { fields: {}, form: errorMessage(err) };
}

const digitsOf = (mobile: string) => mobile.trim().replace(/[\s-]/g, '');

/**
 * One contact form's state: its values, field and form errors, and the save (member info is
 * refetched after it, and the form closes). `check` gives the field problems found before sending.
 */
function useContactForm<V extends Record<string, string>, B>(initial: V, save: (body: B) => Promise<unknown>, onDone: () => void) {
  const queryClient = useQueryClient();
  const [v, setV] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<FieldMessage | null>(null);
  const mutation = useMutation({ mutationFn: save, onSuccess: () => queryClient.invalidateQueries({ queryKey: ['member', 'info'] }) });
  const set = (name: keyof V & string) => (x: string) => {
    setV((o) => ({ ...o, [name]: x }));
    setErrors((e) => ({ ...e, [name]: undefined }));
  };
  const submit = (check: (v: V) => FieldErrors, body: (v: V) => B) => (e: FormEvent) => {
    e.preventDefault();
    const next = check(v);
    setErrors(next);
    setFormError(null);
    if (Object.keys(next).length > 0) return;
    mutation.mutate(body(v), {
      onSuccess: onDone,
      onError: (err) => {
        const failed = contactError(err);
        setErrors(failed.fields);
        setFormError(failed.form);
      },
    });
  };
  return { v, set, errors, setErrors, formError, isPending: mutation.isPending, submit };
}

/** The card around a contact form: title, text, fields, the form's message, Save and Cancel. */
function ContactCard({ name, title, text, formError, isPending, onSubmit, onCancel, children }: {
  name: 'mobile' | 'email'; title: string; text: string; formError: FieldMessage | null; isPending: boolean;
  onSubmit: (e: FormEvent) => void; onCancel: () => void; children: ReactNode;
}) {
  const { t } = useTranslation('register');
  return (
    <form className="mc-card form" noValidate onSubmit={onSubmit} data-testid={`bind-${name}-form`}>
      <h2 className="mc-subtitle">{title}</h2>
      <p className="form-notice">{text}</p>
      {children}
      <FormMessage message={formError} />
      <div className="mc-actions">
        <button type="submit" className="btn btn--primary" disabled={isPending} data-testid={`bind-${name}-submit`}>
          {isPending ? t('please_wait') : t('bind_save')}
        </button>
        <button type="button" className="btn btn--ghost" disabled={isPending} onClick={onCancel}>
          {t('totp_cancel')}
        </button>
      </div>
    </form>
  );
}

/**
 * Security centre: add or change the mobile number (a code sent to it, then the code and the login
 * password). Reset codes and SMS login use it, so a player who signed up by username can recover the
 * account. Closes itself once saved (the facts above show the new number).
 */
export function MobileForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation('register');
  const settings = useRegisterSettings().data;
  const f = useContactForm({ countryDialingCode: '', mobileNum: '', verificationCode: '', password: '' }, bindMobile, onDone);
  const dialing = f.v.countryDialingCode || homeDialingCode(settings);
  const onSubmit = f.submit(
    (v) => {
      const next: FieldErrors = {};
      if (!/^\d{7,15}$/.test(digitsOf(v.mobileNum))) next.mobileNum = v.mobileNum.trim() ? MSG.mobileInvalid : MSG.empty;
      if (!v.verificationCode.trim()) next.verificationCode = MSG.empty;
      if (!v.password) next.password = MSG.empty;
      return next;
    },
    (v) => ({ mobileNum: digitsOf(v.mobileNum), countryDialingCode: dialing, verificationCode: v.verificationCode.trim(), password: v.password }),
  );
  return (
    <ContactCard name="mobile" title={t('bind_mobile_title')} text={t('bind_mobile_text')} formError={f.formError} isPending={f.isPending} onSubmit={onSubmit} onCancel={onDone}>
      <FormField
        name="mobileNum" label={t('sec_mobile')} type="tel" inputMode="tel" autoComplete="tel-national" maxLength={20} required
        value={f.v.mobileNum} onChange={f.set('mobileNum')} error={f.errors.mobileNum}
        prefix={<DialingCodeSelect countries={settings?.countries ?? []} value={dialing} onChange={f.set('countryDialingCode')} label={t('country_code')} />}
      />
      <FormField
        name="verificationCode" label={t('field_verificationCode')} inputMode="numeric" autoComplete="one-time-code" maxLength={8} required
        value={f.v.verificationCode} onChange={f.set('verificationCode')} error={f.errors.verificationCode}
        addon={<SmsCodeButton mobileNum={digitsOf(f.v.mobileNum)} countryDialingCode={dialing} send={sendBindSms} onError={(m) => f.setErrors((e) => ({ ...e, mobileNum: m ?? undefined }))} />}
      />
      <FormField name="password" label={t('bind_password')} type="password" autoComplete="current-password" required value={f.v.password} onChange={f.set('password')} error={f.errors.password} />
    </ContactCard>
  );
}

/** Security centre: add or change the e-mail address (the login password); password reset links go to it. */
export function EmailForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation('register');
  const f = useContactForm({ email: '', password: '' }, bindEmail, onDone);
  const onSubmit = f.submit(
    (v) => {
      const next: FieldErrors = {};
      if (!v.email.trim()) next.email = MSG.empty;
      else if (!EMAIL.test(v.email.trim())) next.email = { key: 'register:bind_email_invalid' };
      if (!v.password) next.password = MSG.empty;
      return next;
    },
    (v) => ({ email: v.email.trim(), password: v.password }),
  );
  return (
    <ContactCard name="email" title={t('bind_email_title')} text={t('bind_email_text')} formError={f.formError} isPending={f.isPending} onSubmit={onSubmit} onCancel={onDone}>
      <FormField name="email" label={t('sec_email')} type="email" autoComplete="email" maxLength={128} required value={f.v.email} onChange={f.set('email')} error={f.errors.email} />
      <FormField name="password" label={t('bind_password')} type="password" autoComplete="current-password" required value={f.v.password} onChange={f.set('password')} error={f.errors.password} />
    </ContactCard>
  );
}
