import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@portal/contracts/domain/constants';
import { useCaptcha } from '../api/get-captcha';
import { createThrottle } from '../lib/throttle';

type Props = {
  /** Changes when the form needs a new image (the last one was used). */
  version: number;
  value: string;
  onChange: (value: string) => void;
  /** The key of the image shown, sent with the answer. */
  onKey: (key: string | undefined) => void;
  error?: string | undefined;
};

/** Image captcha: loaded when shown, a click on the image loads a new one (at most once a second). */
export function CaptchaField({ version, value, onChange, onKey, error }: Props) {
  const { t } = useTranslation('auth');
  const [refresh, setRefresh] = useState(0);
  const [throttle] = useState(() => createThrottle(LIMITS.CAPTCHA_REFRESH_THROTTLE_MS));
  const { data, isPending, isError } = useCaptcha(version * 1000 + refresh);
  const onKeyRef = useRef(onKey);
  onKeyRef.current = onKey;
  useEffect(() => {
    onKeyRef.current(data?.captchaKey);
  }, [data?.captchaKey]);

  return (
    <div className="field">
      <label className="field__label" htmlFor="login-captcha">
        {t('captcha')}
      </label>
      <div className="auth-captcha">
        <input
          id="login-captcha"
          className="field__input"
          name="captcha"
          inputMode="numeric"
          autoComplete="off"
          maxLength={8}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          placeholder={t('captcha_placeholder')}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'login-captcha-error' : undefined}
          data-testid="captcha-input"
        />
        <button
          type="button"
          className="auth-captcha__img"
          onClick={() => throttle(() => setRefresh((n) => n + 1))}
          title={t('captcha_refresh')}
          aria-label={t('captcha_refresh')}
          data-testid="captcha-image"
          data-captcha-key={data?.captchaKey ?? ''}
        >
          {data ? <img src={data.image} alt={t('captcha_alt')} /> : <span className="muted small">{isError ? t('captcha_failed') : isPending ? t('common:loading') : ''}</span>}
        </button>
      </div>
      {error && (
        <span className="field__error" id="login-captcha-error">
          {error}
        </span>
      )}
    </div>
  );
}
