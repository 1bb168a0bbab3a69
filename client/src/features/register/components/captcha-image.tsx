import { useEffect, useRef } from 'react';
import { useMachine } from '@xstate/react';
import { fromPromise } from 'xstate';
import { useTranslation } from 'react-i18next';
import { getCaptcha } from '../api/get-captcha';
import { captchaMachine } from '../machines/captcha-machine';

type Props = {
  /** Bumped by the form after a refused submit: load a fresh captcha at once. */
  round: number;
  onKey: (captchaKey: string) => void;
};

/** The captcha image; a click loads a new one (at most once a second). */
export function CaptchaImage({ round, onKey }: Props) {
  const { t } = useTranslation('register');
  const [state, send] = useMachine(captchaMachine.provide({ actors: { loadCaptcha: fromPromise(() => getCaptcha()) } }));
  const onKeyRef = useRef(onKey);
  onKeyRef.current = onKey;
  const key = state.context.captchaKey;
  useEffect(() => {
    if (key) onKeyRef.current(key);
  }, [key]);
  const firstRound = useRef(round);
  useEffect(() => {
    if (round !== firstRound.current) send({ type: 'RELOAD' });
  }, [round, send]);
  return (
    <button type="button" className="form-captcha" onClick={() => send({ type: 'REFRESH' })} title={t('captcha_refresh')} aria-label={t('captcha_refresh')} data-captcha-key={key ?? ''}>
      {state.context.image ? <img src={state.context.image} alt="" /> : <span>{state.matches('failed') ? '↻' : t('captcha_loading')}</span>}
    </button>
  );
}
