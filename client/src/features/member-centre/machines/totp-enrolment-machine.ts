import { assign, fromPromise, setup } from 'xstate';
import { errorMessage, MSG, type FieldMessage } from '../../../lib/field-message';

export type TotpSetup = { secret: string; otpauthUrl: string; qr: string };

const CODE = /^\d{6}$/;

/**
 * Authenticator (TOTP) enrolment in the security centre: POST /wps/member/totp/setup gives a secret
 * and its QR code; the member confirms with a 6-digit code (POST /wps/member/totp/enable).
 * I/O: `setupTotp`, `enableTotp`; `enrolled` tells the page to reload member info.
 */
export const totpEnrolmentMachine = setup({
  types: {
    context: {} as { setup: TotpSetup | null; code: string; error: FieldMessage | null },
    events: {} as { type: 'START' } | { type: 'CODE.CHANGE'; value: string } | { type: 'SUBMIT' } | { type: 'CANCEL' },
  },
  actors: {
    setupTotp: fromPromise<TotpSetup>(async () => {
      throw new Error('setupTotp is provided by the page');
    }),
    enableTotp: fromPromise<unknown, { code: string }>(async () => {
      throw new Error('enableTotp is provided by the page');
    }),
  },
  guards: { isCodeInvalid: ({ context }) => !CODE.test(context.code.trim()) },
  actions: { enrolled: () => {} },
}).createMachine({
  id: 'totpEnrolment',
  context: { setup: null, code: '', error: null },
  initial: 'idle',
  states: {
    idle: { on: { START: { target: 'settingUp', actions: assign({ error: () => null }) } } },
    settingUp: {
      invoke: {
        id: 'setupTotp',
        src: 'setupTotp',
        onDone: { target: 'awaitingCode', actions: assign({ setup: ({ event }) => event.output, code: () => '', error: () => null }) },
        onError: { target: 'idle', actions: assign({ error: ({ event }) => errorMessage(event.error) }) },
      },
    },
    awaitingCode: {
      on: {
        'CODE.CHANGE': { actions: assign({ code: ({ event }) => event.value.replace(/\D/g, '').slice(0, 6), error: () => null }) },
        SUBMIT: [{ guard: 'isCodeInvalid', actions: assign({ error: () => MSG.codeInvalid }) }, { target: 'enabling' }],
        CANCEL: { target: 'idle', actions: assign({ setup: () => null, code: () => '', error: () => null }) },
      },
    },
    enabling: {
      invoke: {
        id: 'enableTotp',
        src: 'enableTotp',
        input: ({ context }) => ({ code: context.code.trim() }),
        onDone: { target: 'enabled', actions: 'enrolled' },
        onError: { target: 'awaitingCode', actions: assign({ error: ({ event }) => errorMessage(event.error), code: () => '' }) },
      },
    },
    enabled: { type: 'final' },
  },
});
