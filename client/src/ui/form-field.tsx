import { useState } from 'react';
import type { HTMLAttributes, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldMessage } from '../lib/field-message';
import './form.css';
import { useUniqueId } from '../lib/unique-id';

export type FormFieldProps = {
  name: string;
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  required?: boolean;
  type?: 'text' | 'password' | 'email' | 'tel' | 'date';
  error?: FieldMessage | undefined;
  autoComplete?: string;
  inputMode?: HTMLAttributes<HTMLInputElement>['inputMode'];
  maxLength?: number;
  placeholder?: string;
  disabled?: boolean;
  /** Shown at the right of the input (a send-code button, a captcha image). */
  addon?: ReactNode;
  /** Shown before the input (a country code select). */
  prefix?: ReactNode;
  hint?: ReactNode;
};

/** A labelled input with its translated error (role=alert) and a show/hide toggle for passwords. */
export function FormField({ name, label, value, onChange, required, type = 'text', error, autoComplete, inputMode, maxLength, placeholder, disabled, addon, prefix, hint }: FormFieldProps) {
  const { t } = useTranslation('register');
  const id = useUniqueId('field');
  const [isShown, setShown] = useState(false);
  const isPassword = type === 'password';
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  // The hint (a deposit's minimum and maximum, a password's rule) is read with the field, as its error is.
  const describedBy = error ? errorId : hint ? hintId : undefined;
  return (
    <div className={`form-field${error ? ' has-error' : ''}`} data-field={name}>
      <label className="form-field__label" htmlFor={id}>
        {label}
        {/* The input's own `required` says it to a screen reader: a named mark read as "Usernamerequired". */}
        {required && (
          <span className="form-field__req" aria-hidden="true">
            *
          </span>
        )}
      </label>
      <div className="form-field__row">
        {prefix}
        <div className="form-field__box">
          <input
            id={id}
            name={name}
            className="form-field__input"
            type={isPassword && isShown ? 'text' : type}
            value={value}
            onChange={(e) => onChange(e.target.value)}
            required={required}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            autoComplete={autoComplete}
            inputMode={inputMode}
            maxLength={maxLength}
            placeholder={placeholder}
            disabled={disabled}
          />
          {isPassword && (
            <button type="button" className="form-field__eye" onClick={() => setShown((v) => !v)} aria-label={isShown ? t('hide_password') : t('show_password')} aria-pressed={isShown}>
              <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
                <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z" fill="none" stroke="currentColor" strokeWidth="1.8" />
                <circle cx="12" cy="12" r="3" fill="none" stroke="currentColor" strokeWidth="1.8" />
                {!isShown && <path d="M4 20L20 4" stroke="currentColor" strokeWidth="1.8" />}
              </svg>
            </button>
          )}
        </div>
        {addon}
      </div>
      {hint && !error && <p className="form-field__hint" id={hintId}>{hint}</p>}
      {error && (
        <p className="form-field__error" id={errorId} role="alert">
          {t(error.key, error.values)}
        </p>
      )}
    </div>
  );
}

/** The namespace a message key names before its ':' ('register' when it names none). */
function namespaceOf(key: string | undefined): string {
  const i = key?.indexOf(':') ?? -1;
  return key && i > 0 ? key.slice(0, i) : 'register';
}

/** A form-level message (translated). */
export function FormMessage({ message, tone = 'error' }: { message: FieldMessage | null; tone?: 'error' | 'success' }) {
  // The namespace the key names ('common:error_FORBIDDEN'), 'register' for a bare key. Asking for
  // 'register' whatever the key was made a server refusal on a page without a form field (a promotion's
  // Join) wait for that namespace, and the message never showed.
  const { t } = useTranslation(namespaceOf(message?.key));
  if (!message) return null;
  return (
    <p className={`form-message form-message--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {t(message.key, message.values)}
    </p>
  );
}
