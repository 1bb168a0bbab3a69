import { assign, fromPromise, setup } from 'xstate';
import { LIMITS } from '@portal/contracts/domain/constants';
import { isApiError } from '../../../lib/api';

/** What the send actor gets: whatever the caller put in SEND (mobile number, challenge and method...). */
export type SendCodeInput = Record<string, string>;
export type SendCodeOutput = { expiredMinutes: number };

export type SmsCountdownContext = {
  /** Seconds until the send button is enabled again. */
  remaining: number;
  /** Error code of the last failed send (shown as a warning), or null. */
  error: string | null;
  /** The server's message for that failure (the spec shows the server message). */
  errorMessage: string | null;
};

export type SmsCountdownEvent = { type: 'SEND'; payload: SendCodeInput } | { type: 'DISMISS' } | { type: 'RESET' };

export function secondsFor(expiredMinutes: number | undefined): number {
  const minutes = expiredMinutes && expiredMinutes > 0 ? expiredMinutes : LIMITS.SMS_DEFAULT_EXPIRED_MINUTES;
  return minutes * 60;
}

/**
 * The SMS (or e-mail) code button: sends, then stays disabled for expiredMinutes x 60 s (default
 * 1 minute) and counts down. Sends are throttled to one per second, failures included; a failure
 * keeps the button enabled and carries the server's message for a warning.
 */
export const smsCountdownMachine = setup({
  types: {
    context: {} as SmsCountdownContext,
    events: {} as SmsCountdownEvent,
  },
  actors: {
    /** Provided by the form: POST /wps/verification/sms/noLogin, /wps/session/login/verify/send... */
    sendCode: fromPromise<SendCodeOutput, SendCodeInput>(async () => {
      throw new Error('sendCode is not provided');
    }),
  },
  guards: {
    hasMoreSeconds: ({ context }) => context.remaining > 1,
  },
  delays: {
    tick: 1000,
    throttle: LIMITS.SMS_SEND_THROTTLE_MS,
  },
}).createMachine({
  id: 'smsCountdown',
  context: { remaining: 0, error: null, errorMessage: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        SEND: 'sending',
        DISMISS: { actions: assign({ error: null, errorMessage: null }) },
      },
    },
    sending: {
      entry: assign({ error: null, errorMessage: null }),
      invoke: {
        id: 'sendCode',
        src: 'sendCode',
        input: ({ event }) => (event.type === 'SEND' ? event.payload : {}),
        onDone: {
          target: 'counting',
          actions: assign({ remaining: ({ event }) => secondsFor(event.output.expiredMinutes) }),
        },
        onError: {
          target: 'throttled',
          actions: assign({
            error: ({ event }) => (isApiError(event.error) ? event.error.code : 'INTERNAL'),
            errorMessage: ({ event }) => (isApiError(event.error) && event.error.message ? event.error.message : null),
          }),
        },
      },
    },
    /** After a failed send: the next one waits a second. */
    throttled: {
      after: { throttle: 'idle' },
      on: { DISMISS: { actions: assign({ error: null, errorMessage: null }) } },
    },
    counting: {
      after: {
        tick: [
          { guard: 'hasMoreSeconds', target: 'counting', reenter: true, actions: assign({ remaining: ({ context }) => context.remaining - 1 }) },
          { target: 'idle', actions: assign({ remaining: 0 }) },
        ],
      },
      on: { RESET: { target: 'idle', actions: assign({ remaining: 0 }) } },
    },
  },
});
