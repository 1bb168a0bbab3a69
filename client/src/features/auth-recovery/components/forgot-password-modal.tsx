import { useEffect, useMemo, useRef, useState } from 'react';
import { useMachine } from '@xstate/react';
import { fromPromise } from 'xstate';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { errorMessage, type FieldMessage } from '../../../lib/field-message';
import { closePopup, openPopup } from '../../../lib/popups';
import { homeDialingCode, ruleOf, useRegisterSettings, type TRegisterSettings } from '../../../lib/register-settings';
import { setSessionToken } from '../../../lib/session';
import { useWhitelabel } from '../../../lib/whitelabel';
import { FormField, FormMessage } from '../../../ui/form-field';
import { Modal } from '../../../ui/modal';
import { SmsCodeButton } from '../../../ui/sms-code-button';
import { forgotByEmail } from '../api/forgot-by-email';
import { resetByMobile } from '../api/reset-by-mobile';
import { sendResetSms } from '../api/send-reset-sms';
import { forgotPasswordMachine, type ForgotTab, type ForgotValues } from '../machines/forgot-password-machine';
import { DialingCodeSelect } from '../../../ui/dialing-code-select';

type Props = { open: boolean; onClose: () => void };

/** forgetPassModal: opened from the login popup's "Forgot password?" link. */
export function ForgotPasswordModal({ open, onClose }: Props) {
  const { t } = useTranslation('register');
  const settings = useRegisterSettings();
  const whitelabel = useWhitelabel();
  const tab = whitelabel.data?.whitelabelVal.CHNGPASSVERIF3 === 'mobile' ? 'mobile' : 'email';
  return (
    <Modal name="forgetPassModal" open={open} onClose={onClose} title={t('forgot_title')} width={440} height={320}>
      {settings.data && whitelabel.data ? (
        <ForgotForm settings={settings.data} defaultTab={tab} />
      ) : settings.error || whitelabel.error ? (
        <FormMessage message={errorMessage(settings.error ?? whitelabel.error)} />
      ) : (
        <p className="form-notice">{t('loading')}</p>
      )}
    </Modal>
  );
}

const TABS: ForgotTab[] = ['email', 'mobile'];

function ForgotForm({ settings, defaultTab }: { settings: TRegisterSettings; defaultTab: ForgotTab }) {
  const { t } = useTranslation('register');
  const navigate = useNavigate();
  const [smsError, setSmsError] = useState<FieldMessage | null>(null);
  const input = useMemo(
    () => ({
      defaultTab,
      usernameRule: ruleOf(settings, 'username'),
      emailRule: ruleOf(settings, 'email'),
      mobileRule: ruleOf(settings, 'mobileNum'),
      passwordRule: ruleOf(settings, 'password'),
      dialingCode: homeDialingCode(settings),
    }),
    [settings, defaultTab],
  );
  const [state, send] = useMachine(
    forgotPasswordMachine.provide({
      actors: {
        sendResetEmail: fromPromise(({ input: v }) => forgotByEmail(v.username, v.email)),
        resetByMobile: fromPromise(({ input: v }) => resetByMobile(v)),
      },
      actions: { storeSession: ({ context }) => context.login && setSessionToken(context.login.token) },
    }),
    { input },
  );
  const { tab, values, errors, formError } = state.context;
  const isDone = state.status === 'done';
  const finished = useRef(false);
  useEffect(() => {
    if (!isDone || finished.current) return;
    finished.current = true;
    closePopup();
    navigate('/');
  }, [isDone, navigate]);
  const isBusy = state.matches('sendingEmail') || state.matches('resetting') || isDone;
  const change = (field: keyof ForgotValues) => (value: string) => send({ type: 'FIELD.CHANGE', field, value });

  const tabs = (
    <div className="form-tabs" role="tablist">
      {TABS.map((k) => (
        <button key={k} type="button" role="tab" aria-selected={tab === k} onClick={() => send({ type: 'TAB.SET', tab: k })}>
          {t(`tab_${k}`)}
        </button>
      ))}
    </div>
  );

  if (state.matches('emailSent')) {
    return (
      <div className="form">
        {tabs}
        <div className="form-done" role="status" data-forgot-sent>
          <span className="form-done__icon" aria-hidden="true">
            <svg viewBox="0 0 24 24" width="26" height="26">
              <path d="M3 6h18v12H3z M3 7l9 6 9-6" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round" />
            </svg>
          </span>
          <p className="form-done__text">{t('in_been_out')}</p>
          <p className="form-notice">{t('in_been_out_hint')}</p>
          <button type="button" className="btn btn--primary btn--block" onClick={closePopup}>
            {t('ok')}
          </button>
        </div>
      </div>
    );
  }

  return (
    <form
      className="form"
      noValidate
      data-forgot-tab={tab}
      onSubmit={(e) => {
        e.preventDefault();
        send({ type: 'SUBMIT' });
      }}
    >
      {tabs}
      {tab === 'email' ? (
        <>
          <p className="form-notice">{t('forgot_email_hint')}</p>
          <FormField name="username" label={t('field_username')} required value={values.username} onChange={change('username')} error={errors.username} autoComplete="username" />
          <FormField name="email" label={t('field_email')} required type="email" value={values.email} onChange={change('email')} error={errors.email} autoComplete="email" />
        </>
      ) : (
        <>
          <p className="form-notice">{t('forgot_mobile_hint')}</p>
          <FormField
            name="mobileNum"
            label={t('field_mobileNum')}
            required
            type="tel"
            inputMode="numeric"
            value={values.mobileNum}
            onChange={change('mobileNum')}
            error={errors.mobileNum}
            autoComplete="tel-national"
            prefix={
              <DialingCodeSelect countries={settings.countries} value={values.countryDialingCode} onChange={change('countryDialingCode')} label={t('country_code')} />
            }
          />
          <FormField
            name="verificationCode"
            label={t('field_verificationCode')}
            required
            inputMode="numeric"
            maxLength={6}
            value={values.verificationCode}
            onChange={change('verificationCode')}
            error={errors.verificationCode ?? smsError ?? undefined}
            autoComplete="one-time-code"
            addon={<SmsCodeButton mobileNum={values.mobileNum} countryDialingCode={values.countryDialingCode} send={sendResetSms} onError={setSmsError} />}
          />
          <FormField name="newPassword" label={t('field_newPassword')} required type="password" value={values.newPassword} onChange={change('newPassword')} error={errors.newPassword} autoComplete="new-password" />
          <FormField
            name="confirmNewPassword"
            label={t('field_confirmNewPassword')}
            required
            type="password"
            value={values.confirmNewPassword}
            onChange={change('confirmNewPassword')}
            error={errors.confirmNewPassword}
            autoComplete="new-password"
          />
        </>
      )}
      <FormMessage message={formError} />
      <button type="submit" className="btn btn--primary btn--block btn--lg" disabled={isBusy} aria-busy={isBusy}>
        {isBusy ? t('please_wait') : tab === 'email' ? t('send_link') : t('reset_submit')}
      </button>
      <p className="form-foot">
        <button type="button" className="link-btn" onClick={() => openPopup('loginPopupModal')}>
          {t('go_login')}
        </button>
      </p>
    </form>
  );
}
