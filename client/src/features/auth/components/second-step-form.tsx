import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { sendLoginVerification } from '../api/send-login-verification';
import type { TSecondStepMethod } from '../lib/auth-types';
import { SmsCodeButton } from './sms-code-button';

type Props = {
  challengeId: string;
  methods: TSecondStepMethod[];
  method: TSecondStepMethod;
  isVerifying: boolean;
  error: string | null;
  codeError?: string | undefined;
  onPick: (method: TSecondStepMethod) => void;
  onVerify: (code: string) => void;
  onBack: () => void;
};

const METHOD_KEY: Record<TSecondStepMethod, string> = { sms: 'method_sms', email: 'method_email', totp: 'method_totp' };

/** Login from an unregistered IP: pick how to prove it is you, get a code (SMS or e-mail), enter it. */
export function SecondStepForm({ challengeId, methods, method, isVerifying, error, codeError, onPick, onVerify, onBack }: Props) {
  const { t } = useTranslation('auth');
  const [code, setCode] = useState('');
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    onVerify(code);
  };
  const codeInput = (
    <input
      id="second-step-code"
      className="field__input"
      name="code"
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      value={code}
      onChange={(e) => setCode(e.target.value)}
      placeholder={t('code_placeholder')}
      aria-invalid={codeError ? true : undefined}
      aria-describedby={codeError ? 'second-step-code-error' : undefined}
      data-testid="second-step-code"
    />
  );

  return (
    <form className="auth-form" onSubmit={onSubmit} noValidate data-testid="second-step-form">
      <h3 className="auth-form__title">{t('second_step_title')}</h3>
      <p className="muted small">{t('second_step_text')}</p>
      <fieldset className="auth-methods">
        <legend className="field__label">{t('second_step_method')}</legend>
        {methods.map((m) => (
          <label key={m} className={`auth-methods__item${m === method ? ' is-active' : ''}`}>
            <input type="radio" name="method" value={m} checked={m === method} onChange={() => onPick(m)} data-testid={`second-step-${m}`} />
            <span>{t(METHOD_KEY[m])}</span>
          </label>
        ))}
      </fieldset>
      <div className="field">
        <label className="field__label" htmlFor="second-step-code">
          {method === 'totp' ? t('totp_code') : t('verification_code')}
        </label>
        {method === 'totp' ? (
          codeInput
        ) : (
          <SmsCodeButton key={method} send={() => sendLoginVerification({ challengeId, method })} getPayload={() => ({ method })} testId="second-step-send">
            {codeInput}
          </SmsCodeButton>
        )}
        {codeError && (
          <span className="field__error" id="second-step-code-error">
            {codeError}
          </span>
        )}
      </div>
      {error && (
        <p className="auth-error" role="alert" data-testid="login-error">
          {error}
        </p>
      )}
      <button type="submit" className="btn btn--primary btn--block btn--lg" disabled={isVerifying} data-testid="second-step-submit">
        {isVerifying ? t('verifying') : t('verify')}
      </button>
      <button type="button" className="link-btn" onClick={onBack} disabled={isVerifying}>
        {t('back')}
      </button>
    </form>
  );
}
