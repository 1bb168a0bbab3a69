import { useEffect, useRef } from 'react';
import { useMachine } from '@xstate/react';
import { fromPromise } from 'xstate';
import { useTranslation } from 'react-i18next';
import { smsCountdownMachine, type SmsSendInput } from '../lib/sms-countdown-machine';
import type { FieldMessage } from '../lib/field-message';

type Props = {
  mobileNum: string;
  countryDialingCode: string;
  /** The form's SMS call (registration or recovery). */
  send: (input: SmsSendInput) => Promise<{ expiredMinutes: number }>;
  /** The latest send problem (invalid number, server refusal), or null after a good send. */
  onError: (message: FieldMessage | null) => void;
};

/** "Send code" with its countdown (lib/sms-countdown-machine): off while sending, throttled and counting. */
export function SmsCodeButton({ mobileNum, countryDialingCode, send, onError }: Props) {
  const { t } = useTranslation('register');
  const sendRef = useRef(send);
  sendRef.current = send;
  const onErrorRef = useRef(onError);
  onErrorRef.current = onError;
  const [state, sendEvent] = useMachine(
    smsCountdownMachine.provide({ actors: { sendCode: fromPromise(({ input }) => sendRef.current(input)) } }),
  );
  const error = state.context.error;
  useEffect(() => onErrorRef.current(error), [error]);
  const isCounting = state.matches('counting');
  const isSending = state.matches('sending');
  return (
    <button
      type="button"
      className="btn btn--outline form-field__addon-btn"
      disabled={isCounting || isSending || state.matches('throttled')}
      data-sms-state={String(state.value)}
      onClick={() => sendEvent({ type: 'SEND', mobileNum, countryDialingCode })}
    >
      {isCounting ? t('resend_in', { seconds: state.context.remaining }) : isSending ? t('sending_code') : t('send_code')}
    </button>
  );
}
