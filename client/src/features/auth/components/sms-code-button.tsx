import { useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useMachine } from '@xstate/react';
import { fromPromise } from 'xstate';
import { smsCountdownMachine, type SendCodeInput, type SendCodeOutput } from '../machines/sms-countdown.machine';

type Props = {
  /** The call that sends the code (SMS login code, second-step code...). */
  send: (payload: SendCodeInput) => Promise<SendCodeOutput>;
  /** What to send, or null when the form is not ready (it shows why). */
  getPayload: () => SendCodeInput | null;
  testId?: string;
  /** The code input, shown in a row with the button. */
  children: ReactNode;
};

/** "Send code": disabled while sending and during the countdown; a failure shows a warning. */
export function SmsCodeButton({ send, getPayload, testId = 'send-code', children }: Props) {
  const { t } = useTranslation('auth');
  const sendRef = useRef(send);
  sendRef.current = send;
  const [machine] = useState(() =>
    smsCountdownMachine.provide({ actors: { sendCode: fromPromise(({ input }: { input: SendCodeInput }) => sendRef.current(input)) } }),
  );
  const [snapshot, sendEvent] = useMachine(machine);
  const { remaining, error, errorMessage } = snapshot.context;
  const isSending = snapshot.matches('sending');
  const isCounting = snapshot.matches('counting');

  return (
    <>
      <div className="auth-code-row">
        {children}
        <button
        type="button"
        className="btn btn--outline auth-code-btn"
        disabled={isSending || isCounting}
        data-testid={testId}
        onClick={() => {
          const payload = getPayload();
          if (payload) sendEvent({ type: 'SEND', payload });
        }}
      >
        {isSending ? t('sending') : isCounting ? t('resend_in', { seconds: remaining }) : t('send_code')}
        </button>
      </div>
      {error && (
        <p className="auth-warning" role="alert" data-testid={`${testId}-warning`}>
          {error === 'INTERNAL' && errorMessage ? errorMessage : t(`common:error_${error}`, { defaultValue: errorMessage ?? t('common:error_INTERNAL') })}
        </p>
      )}
    </>
  );
}
