import { assign, fromPromise, setup } from 'xstate';
import { LIMITS } from '@portal/contracts/domain/constants';
import { errorMessage, type FieldMessage } from '../../../lib/field-message';

/**
 * The captcha image of the register form (GET /wps/captcha): a click refreshes it at most once per
 * second (spec section 5); after a refused submit the form reloads it at once (`RELOAD`), since an
 * answer is good for one try.
 */
export const captchaMachine = setup({
  types: {
    context: {} as { captchaKey: string | null; image: string | null; error: FieldMessage | null },
    events: {} as { type: 'REFRESH' } | { type: 'RELOAD' },
  },
  actors: {
    loadCaptcha: fromPromise<{ captchaKey: string; image: string }>(async () => {
      throw new Error('loadCaptcha is provided by the form');
    }),
  },
  delays: { throttle: LIMITS.CAPTCHA_REFRESH_THROTTLE_MS },
}).createMachine({
  id: 'captcha',
  context: { captchaKey: null, image: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadCaptcha',
        src: 'loadCaptcha',
        onDone: {
          target: 'ready',
          actions: assign({ captchaKey: ({ event }) => event.output.captchaKey, image: ({ event }) => event.output.image, error: () => null }),
        },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => errorMessage(event.error) }) },
      },
    },
    ready: {
      initial: 'cooling',
      on: { RELOAD: 'loading' },
      states: {
        /** Clicks within a second of the last load are ignored. */
        cooling: { after: { throttle: 'idle' } },
        idle: { on: { REFRESH: '#captcha.loading' } },
      },
    },
    failed: { on: { REFRESH: 'loading', RELOAD: 'loading' } },
  },
});
