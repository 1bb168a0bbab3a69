import { assign, fromPromise, setup } from 'xstate';
import { LIMITS } from '@portal/contracts/domain/constants';
import { readMobile } from '@portal/contracts/domain/mobile';
import { errorMessage, MSG, type FieldMessage } from './field-message';

/**
 * The "send code" button of every SMS form (spec sections 4, 5, 9): the number must be valid first;
 * a sent code disables the button for expiredMinutes x 60 s; sends are throttled to one a second
 * (after a failure too). The send itself is the `sendCode` actor, provided by each form.
 */
export type SmsSendInput = { mobileNum: string; countryDialingCode: string };

export const SMS_DEFAULT_MINUTES = 1;

export const smsCountdownMachine = setup({
  types: {
    context: {} as { remaining: number; error: FieldMessage | null },
    events: {} as { type: 'SEND'; mobileNum: string; countryDialingCode: string } | { type: 'RESET' },
  },
  actors: {
    sendCode: fromPromise<{ expiredMinutes: number }, SmsSendInput>(async () => {
      throw new Error('sendCode is provided by the form');
    }),
  },
  guards: {
    // A mobile number of the form's country (0917 123 4567 in the Philippines), as the server asks: a
    // landline or 1234567 went through the slider first and was then refused.
    isMobileInvalid: ({ event }) => event.type === 'SEND' && readMobile(event.countryDialingCode, event.mobileNum) === null,
    hasTimeLeft: ({ context }) => context.remaining > 1,
  },
  delays: { throttle: LIMITS.SMS_SEND_THROTTLE_MS, tick: 1000 },
}).createMachine({
  id: 'smsCountdown',
  context: { remaining: 0, error: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        SEND: [
          { guard: 'isMobileInvalid', actions: assign({ error: () => MSG.mobileInvalid }) },
          { target: 'sending', actions: assign({ error: () => null }) },
        ],
      },
    },
    sending: {
      invoke: {
        id: 'sendCode',
        src: 'sendCode',
        input: ({ event }) =>
          event.type === 'SEND' ? { mobileNum: event.mobileNum.trim(), countryDialingCode: event.countryDialingCode } : { mobileNum: '', countryDialingCode: '' },
        onDone: {
          target: 'counting',
          actions: assign({
            remaining: ({ event }) => Math.max(1, event.output.expiredMinutes || SMS_DEFAULT_MINUTES) * 60,
          }),
        },
        onError: { target: 'throttled', actions: assign({ error: ({ event }) => errorMessage(event.error) }) },
      },
    },
    /** After a failure the button stays off for the throttle interval. */
    throttled: { after: { throttle: 'idle' } },
    counting: {
      after: {
        tick: [
          { guard: 'hasTimeLeft', target: 'counting', reenter: true, actions: assign({ remaining: ({ context }) => context.remaining - 1 }) },
          { target: 'idle', actions: assign({ remaining: () => 0 }) },
        ],
      },
      on: { RESET: { target: 'idle', actions: assign({ remaining: () => 0 }) } },
    },
  },
});
