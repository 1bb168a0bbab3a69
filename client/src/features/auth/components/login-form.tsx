import { useMemo, useRef, useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import { fromPromise } from 'xstate';
import type { TWhitelabel } from '@portal/contracts/api/system';
import { openPopup } from '../../../lib/popups';
import { setLoginFlags } from '../../../lib/login-state';
import { getSessionToken } from '../../../lib/session';
import { useWhitelabel } from '../../../lib/whitelabel';
import { freePlay } from '../api/free-play';
import { getBotChallenge } from '../api/get-bot-challenge';
import { getMemberInfo, MEMBER_INFO_KEY, memberInfoQueryOptions } from '../api/get-member-info';
import { prefetchConsolidatedFunds } from '../../../lib/agent-funds';
import { login } from '../api/login';
import { sendSmsLoginCode } from '../api/send-sms-login-code';
import { verifyLogin } from '../api/verify-login';
import type { TLoginRequest, TSecondStepMethod } from '../lib/auth-types';
import { EMPTY_LOGIN_FORM, smsDialingCode, validateMobile, type LoginFieldErrorKey, type LoginFormValues, type LoginType } from '../lib/login-validation';
import { homeDialingCode, useRegisterSettings } from '../../../lib/register-settings';
import { clearRemembered, formFromRemembered, readRemembered, rememberLogin } from '../lib/remember-me';
import { requestFirstLoginPopups, storeLogin } from '../lib/session-actions';
import { loginMachine } from '../machines/login.machine';
import { BotCheckSlider } from './bot-check-slider';
import { CaptchaField } from './captcha-field';
import { SecondStepForm } from './second-step-form';
import { SmsCodeButton } from './sms-code-button';
import './auth.css';
import { focusFirstInvalid } from '../../../ui/focus-invalid';
import { DialingCodeSelect } from '../../../ui/dialing-code-select';

export type LoginFormProps = {
  /** The agent page's form: only agents pass, success goes to /agentHome. */
  agentLogin?: boolean;
  /** The form is done (logged in, or handed over to the change-password modal). */
  onFinish?: () => void;
  /** Extra actions under the submit button (free play, register...). */
  footer?: (ctx: { onFreePlay: () => void; isBusy: boolean }) => ReactNode;
};

/** Login types the merchant enables, in the spec's order (USERNAMEREG3, MOBILEVERCODELOGIN3). */
export function enabledLoginTypes(modules: TWhitelabel['modules'] | undefined): LoginType[] {
  const types: LoginType[] = [];
  if (modules?.USERNAMEREG3) types.push('username');
  if (modules?.MOBILEVERCODELOGIN3) types.push('sms');
  return types.length ? types : ['username'];
}

export function LoginForm(props: LoginFormProps) {
  const { t } = useTranslation('auth');
  const { data } = useWhitelabel();
  if (!data) return <p className="muted">{t('common:loading')}</p>;
  return <LoginFormInner {...props} whitelabel={data} />;
}

function LoginFormInner({ agentLogin = false, onFinish, footer, whitelabel }: LoginFormProps & { whitelabel: TWhitelabel }) {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const types = useMemo(() => enabledLoginTypes(whitelabel.modules), [whitelabel.modules]);
  const byMobileToo = whitelabel.modules.MOBILENUMPASSREG3 === true;
  const [form, setForm] = useState<LoginFormValues>(() => formFromRemembered(EMPTY_LOGIN_FORM, readRemembered()));
  // The SMS login's dialing code: the merchant's own (+84 on LuckyDong) unless another was remembered.
  const registerSettings = useRegisterSettings().data;
  // A code picked here wins (the form's +63 default counts as none in smsDialingCode, so a pick of +63
  // on a +84 merchant would read as no pick).
  const [pickedDialing, setPickedDialing] = useState<string | null>(null);
  const dialing = pickedDialing ?? smsDialingCode(form.countryDialingCode, homeDialingCode(registerSettings));
  // The countries registration offers: a player who signed up with +84 logs in with +84.
  const countries = registerSettings?.countries ?? [];
  const [localErrors, setLocalErrors] = useState<Partial<Record<'mobileNum', LoginFieldErrorKey>>>({});
  const onFinishRef = useRef(onFinish);
  onFinishRef.current = onFinish;

  const [machine] = useState(() =>
    loginMachine.provide({
      actors: {
        loadBotChallenge: fromPromise(({ input, signal }: { input: { account: string }; signal: AbortSignal }) => getBotChallenge(input.account, signal)),
        login: fromPromise(({ input, signal }: { input: TLoginRequest; signal: AbortSignal }) => login(input, signal)),
        verifyLogin: fromPromise(({ input, signal }: { input: { challengeId: string; method: TSecondStepMethod; code: string }; signal: AbortSignal }) =>
          verifyLogin(input, signal),
        ),
        freePlay: fromPromise(() => freePlay()),
        loadMember: fromPromise(({ signal }) => getMemberInfo(signal)),
      },
      actions: {
        storeSession: (_, { login: value }) => storeLogin(value),
        rememberUser: (_, { form: f, type }) => rememberLogin(f, type),
        showFirstLoginPopups: () => requestFirstLoginPopups(),
        openChangePassword: () => openPopup('changePassModal', { forced: true }),
        afterLogin: (_, { member }) => {
          if (member) {
            queryClient.setQueryData(memberInfoQueryOptions(getSessionToken()).queryKey, member);
            setLoginFlags({ isAgent: member.isAgent, isTrial: member.isTrial });
            // Spec: the consolidated call (contract and salary flags) runs at login for non-trial members with AGENTPOLICY3.
            if (whitelabel.modules.AGENTPOLICY3 && !member.isTrial) prefetchConsolidatedFunds(queryClient, getSessionToken());
          }
          // After login: everything shown as a guest (announcements, popups...) is fetched again as a member.
          void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== MEMBER_INFO_KEY[0] });
        },
        finish: () => onFinishRef.current?.(),
        goAgentHome: () => navigate('/agentHome'),
        goHome: () => navigate('/'),
      },
    }),
  );
  const [snapshot, send] = useMachine(machine, {
    input: { types, agentLogin, forceExpiredChange: whitelabel.modules.PWDEXPFORCECHANGE3, botCheck: whitelabel.security.botCheck },
  });
  const ctx = snapshot.context;
  const isBusy = !snapshot.matches('idle') && !snapshot.matches('botSolving') && !snapshot.matches('secondStep');
  const fieldError = (key: LoginFieldErrorKey | undefined) => (key ? t(key) : undefined);
  const errorText = ctx.error ? t(`common:error_${ctx.error}`, { defaultValue: t('common:error_INTERNAL') }) : null;
  const idp = agentLogin ? 'agent-login' : 'login';

  if (snapshot.matches('secondStep') || snapshot.matches('verifying')) {
    return (
      <SecondStepForm
        challengeId={ctx.secondStep?.challengeId ?? ''}
        methods={ctx.secondStep?.methods ?? []}
        method={ctx.method ?? 'sms'}
        isVerifying={snapshot.matches('verifying')}
        error={errorText}
        codeError={fieldError(ctx.fieldErrors.code)}
        onPick={(method) => send({ type: 'PICK_METHOD', method })}
        onVerify={(code) => send({ type: 'VERIFY', code })}
        onBack={() => send({ type: 'BACK' })}
      />
    );
  }

  const set = <K extends keyof LoginFormValues>(key: K, value: LoginFormValues[K]) => setForm((f) => ({ ...f, [key]: value }));
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setLocalErrors({});
    send({ type: 'SUBMIT', form: { ...form, countryDialingCode: dialing } });
    // A field refused here gets the focus: a keyboard or screen-reader user lands on what to fix.
    focusFirstInvalid(e.currentTarget);
  };
  const isSms = ctx.type === 'sms';
  const isSolving = snapshot.matches('botLoading') || snapshot.matches('botSolving');

  return (
    <form className="auth-form" onSubmit={onSubmit} noValidate data-testid={`${idp}-form`} data-state={String(snapshot.value)}>
      {types.length > 1 && (
        <div className="auth-tabs" role="tablist" aria-label={t('login_type')}>
          {types.map((type) => (
            <button
              key={type}
              type="button"
              role="tab"
              aria-selected={ctx.type === type}
              className={`auth-tabs__tab${ctx.type === type ? ' is-active' : ''}`}
              onClick={() => send({ type: 'SWITCH_TYPE', loginType: type })}
              data-testid={`login-type-${type}`}
              disabled={isBusy || isSolving}
            >
              {t(type === 'sms' ? 'type_sms' : 'type_username')}
            </button>
          ))}
        </div>
      )}

      {isSms ? (
        <>
          <Field id={`${idp}-mobile`} label={t('mobile')} error={fieldError(localErrors.mobileNum ?? ctx.fieldErrors.mobileNum)}>
            {(aria) => (
              <div className="auth-mobile">
                {countries.length > 1 ? (
                  <DialingCodeSelect
                    className="auth-mobile__code auth-mobile__select"
                    countries={countries}
                    value={dialing}
                    onChange={(v) => {
                      setPickedDialing(v);
                      set('countryDialingCode', v);
                    }}
                    label={t('dialing_code')}
                    testId="login-dialing-code"
                  />
                ) : (
                  <span className="auth-mobile__code" aria-label={t('dialing_code')}>
                    +{dialing}
                  </span>
                )}
                <input
                  {...aria}
                  className="field__input"
                  name="mobileNum"
                  type="tel"
                  inputMode="tel"
                  autoComplete="tel-national"
                  maxLength={20}
                  value={form.mobileNum}
                  onChange={(e) => set('mobileNum', e.target.value)}
                  placeholder={t('mobile_placeholder')}
                  data-testid="login-mobile"
                />
              </div>
            )}
          </Field>
          <Field id={`${idp}-code`} label={t('sms_code')} error={fieldError(ctx.fieldErrors.smsCode)}>
            {(aria) => (
              <SmsCodeButton
                send={(p) => sendSmsLoginCode(p.mobileNum ?? '', p.countryDialingCode ?? dialing)}
                getPayload={() => {
                  const problem = validateMobile(form.mobileNum);
                  setLocalErrors(problem ? { mobileNum: problem } : {});
                  return problem ? null : { mobileNum: form.mobileNum.trim().replace(/[\s-]/g, ''), countryDialingCode: dialing };
                }}
                testId="login-send-code"
              >
                <input
                  {...aria}
                  className="field__input"
                  name="smsCode"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={8}
                  value={form.smsCode}
                  onChange={(e) => set('smsCode', e.target.value)}
                  placeholder={t('sms_code_placeholder')}
                  data-testid="login-sms-code"
                />
              </SmsCodeButton>
            )}
          </Field>
        </>
      ) : (
        <>
          {/* MOBILENUMPASSREG3 (mobile number + password login): the account may be named by its mobile number. */}
          <Field id={`${idp}-username`} label={t(byMobileToo ? 'username_or_mobile' : 'username')} error={fieldError(ctx.fieldErrors.username)}>
            {(aria) => (
              <input
                {...aria}
                className="field__input"
                name="username"
                autoComplete="username"
                maxLength={64}
                value={form.username}
                onChange={(e) => set('username', e.target.value)}
                placeholder={t(byMobileToo ? 'username_or_mobile_placeholder' : 'username_placeholder')}
                data-testid="login-username"
              />
            )}
          </Field>
          <Field id={`${idp}-password`} label={t('password')} error={fieldError(ctx.fieldErrors.password)}>
            {(aria) => (
              <input
                {...aria}
                className="field__input"
                name="password"
                type="password"
                autoComplete="current-password"
                maxLength={128}
                value={form.password}
                onChange={(e) => set('password', e.target.value)}
                placeholder={t('password_placeholder')}
                data-testid="login-password"
              />
            )}
          </Field>
          {ctx.isCaptchaShown && (
            <CaptchaField
              version={ctx.captchaVersion}
              value={form.captcha}
              onChange={(v) => set('captcha', v)}
              onKey={(key) => setForm((f) => ({ ...f, captchaKey: key, captcha: '' }))}
              error={fieldError(ctx.fieldErrors.captcha)}
            />
          )}
        </>
      )}

      <div className="auth-form__row">
        <label className="auth-check">
          <input
            type="checkbox"
            checked={form.remember}
            onChange={(e) => {
              set('remember', e.target.checked);
              if (!e.target.checked) clearRemembered();
            }}
            data-testid="login-remember"
          />
          <span>{t('remember_me')}</span>
        </label>
        {!agentLogin && (
          <button type="button" className="link-btn" onClick={() => openPopup('forgetPassModal')} data-testid="forgot-password">
            {t('forgot_password')}
          </button>
        )}
      </div>

      {errorText && (
        <p className="auth-error" role="alert" data-testid="login-error">
          {errorText}
        </p>
      )}

      {isSolving ? (
        snapshot.matches('botSolving') && ctx.bot ? (
          <BotCheckSlider challenge={ctx.bot} onSolved={(x, y) => send({ type: 'BOT_SOLVED', x, y })} onCancel={() => send({ type: 'BOT_CANCEL' })} />
        ) : (
          <p className="muted small">{t('common:loading')}</p>
        )
      ) : (
        <button type="submit" className="btn btn--primary btn--block btn--lg" disabled={isBusy} data-testid={`${idp}-submit`}>
          {isBusy ? <span className="auth-spinner" aria-hidden="true" /> : null}
          {isBusy ? t('logging_in') : t('login')}
        </button>
      )}
      {footer?.({ onFreePlay: () => send({ type: 'FREE_PLAY' }), isBusy: isBusy || isSolving })}
    </form>
  );
}

type FieldProps = {
  id: string;
  label: string;
  error?: string | undefined;
  children: (aria: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode;
};

function Field({ id, label, error, children }: FieldProps) {
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {children({ id, ...(error ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-error` } : {}) })}
      {error && (
        <span className="field__error" id={`${id}-error`} role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
