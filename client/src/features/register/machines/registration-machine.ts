import { assign, fromPromise, setup } from 'xstate';
import type { TRegisterBody } from '@portal/contracts/api/auth';
import { ErrorCode } from '@portal/contracts/api/errors';
import { isApiError } from '../../../lib/api';
import { errorMessage, type FieldErrors, type FieldMessage } from '../../../lib/field-message';
import {
  affiliateCodeOf,
  buildRegisterBody,
  serverErrors,
  validateRegistration,
  type RegisterKind,
  type RegistrationSetup,
  type RegistrationValues,
} from './registration-form';

/** The login value a registration returns (`login: true`): a token when the server signed the player in. */
export type RegisterResult = { memberId: number; token?: string | undefined };

type Context = {
  setup: RegistrationSetup;
  kind: RegisterKind;
  values: RegistrationValues;
  termsAccepted: boolean;
  ageConfirmed: boolean;
  errors: FieldErrors;
  formError: FieldMessage | null;
  result: RegisterResult | null;
};

export type RegistrationEvent =
  | { type: 'KIND.SET'; kind: RegisterKind }
  | { type: 'FIELD.CHANGE'; field: keyof RegistrationValues; value: string }
  | { type: 'TERMS.TOGGLE' }
  | { type: 'AGE.TOGGLE' }
  | { type: 'SUBMIT' }
  /** Show every field's problem without sending (the page found one the values cannot show: a date the calendar lacks). */
  | { type: 'CHECK' }
  | { type: 'DIALOG.CLOSE' };

const checksOf = (c: Context) => ({ termsAccepted: c.termsAccepted, ageConfirmed: c.ageConfirmed });

/**
 * The register popup (spec sections 3-5): validate everything, check an invitation code with the
 * server when there is one (a refusal opens the invitation_code_error dialog and stops), register,
 * then store the session. I/O: `checkAffiliate`, `register`; effects: `storeSession`, `captchaUsed`.
 */
export const registrationMachine = setup({
  types: {
    context: {} as Context,
    events: {} as RegistrationEvent,
    input: {} as { setup: RegistrationSetup },
  },
  actors: {
    checkAffiliate: fromPromise<unknown, { code: string; domain: string }>(async () => {
      throw new Error('checkAffiliate is provided by the popup');
    }),
    register: fromPromise<RegisterResult, { kind: RegisterKind; body: TRegisterBody }>(async () => {
      throw new Error('register is provided by the popup');
    }),
  },
  guards: {
    isFormInvalid: ({ context }) => Object.keys(validateRegistration(context.setup, context.kind, context.values, checksOf(context))).length > 0,
    hasAffiliateCode: ({ context }) => affiliateCodeOf(context.setup, context.kind, context.values) !== null,
    isKindAllowed: ({ context, event }) => event.type === 'KIND.SET' && context.setup.kinds.includes(event.kind),
    isInvitationRefused: ({ event }) => {
      const error: unknown = 'error' in event ? event.error : null;
      return isApiError(error) && error.code === ErrorCode.INVALID_INVITATION_CODE;
    },
    /** The referral code of the link the visitor came by is not (or no longer) valid. */
    isReferralRefused: ({ context, event }) => {
      const error: unknown = 'error' in event ? event.error : null;
      return isApiError(error) && error.code === ErrorCode.REFERRAL_CODE_INVALID && !!context.setup.urlReferralCode;
    },
  },
  actions: {
    /** Saves the token of the automatic login (lib/session); provided by the popup. */
    storeSession: () => {},
    /** A captcha answer is single use: the popup loads a new one after a refused submit. */
    captchaUsed: () => {},
    /** The link's referral code was refused and is dropped: the popup forgets the one it kept. */
    referralDropped: () => {},
    showProblems: assign({
      errors: ({ context }) => validateRegistration(context.setup, context.kind, context.values, checksOf(context)),
      formError: () => null,
    }),
    clearErrors: assign({ errors: () => ({}), formError: () => null }),
  },
}).createMachine({
  id: 'registration',
  context: ({ input }) => ({
    setup: input.setup,
    kind: input.setup.kinds[0] ?? 'register',
    // An invitation link's code (?affiliateCode= / ?code=) fills the invitation field when the form shows
    // it: it was left empty, so a player who registered from an agent's link joined no team.
    values: { countryDialingCode: input.setup.dialingCode ?? '63', ...(input.setup.urlAffiliateCode?.trim() ? { affiliateCode: input.setup.urlAffiliateCode.trim() } : {}) },
    termsAccepted: true,
    ageConfirmed: false,
    errors: {},
    formError: null,
    result: null,
  }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'KIND.SET': { guard: 'isKindAllowed', actions: assign({ kind: ({ event }) => event.kind, errors: () => ({}), formError: () => null }) },
        'FIELD.CHANGE': {
          actions: assign({
            // A new captcha picture (after a refused submit, or a click) makes the typed answer stale: it
            // is cleared, while the captcha's error (why the last one failed) stays until the player types.
            values: ({ context, event }) => ({ ...context.values, [event.field]: event.value, ...(event.field === 'captchaKey' ? { captcha: '' } : {}) }),
            errors: ({ context, event }) => {
              const { [event.field]: _dropped, ...rest } = context.errors;
              return rest;
            },
          }),
        },
        'TERMS.TOGGLE': {
          actions: assign({
            termsAccepted: ({ context }) => !context.termsAccepted,
            errors: ({ context }) => ({ ...context.errors, terms: undefined }),
          }),
        },
        'AGE.TOGGLE': {
          actions: assign({
            ageConfirmed: ({ context }) => !context.ageConfirmed,
            errors: ({ context }) => ({ ...context.errors, age: undefined }),
          }),
        },
        CHECK: { actions: 'showProblems' },
        SUBMIT: [
          { guard: 'isFormInvalid', actions: 'showProblems' },
          { guard: 'hasAffiliateCode', target: 'checkingAffiliate', actions: 'clearErrors' },
          { target: 'registering', actions: 'clearErrors' },
        ],
      },
    },
    checkingAffiliate: {
      invoke: {
        id: 'checkAffiliate',
        src: 'checkAffiliate',
        input: ({ context }) => ({ code: affiliateCodeOf(context.setup, context.kind, context.values) ?? '', domain: context.setup.domain }),
        onDone: 'registering',
        onError: [
          { guard: 'isInvitationRefused', target: 'invitationRefused' },
          { target: 'editing', actions: assign({ formError: ({ event }) => errorMessage(event.error) }) },
        ],
      },
    },
    /** The invitation_code_error dialog: 'Invalid invitation code'. */
    invitationRefused: {
      on: { 'DIALOG.CLOSE': 'editing' },
    },
    registering: {
      invoke: {
        id: 'register',
        src: 'register',
        input: ({ context }) => ({ kind: context.kind, body: buildRegisterBody(context.setup, context.kind, context.values, checksOf(context)) }),
        onDone: { target: 'registered', actions: [assign({ result: ({ event }) => event.output }), 'storeSession'] },
        onError: [
          { guard: 'isInvitationRefused', target: 'invitationRefused', actions: 'captchaUsed' },
          // A referral code comes only from the link (the form has no field for it): refused, it is dropped
          // and the player is told the next submit registers without it. Every retry failed the same way.
          {
            guard: 'isReferralRefused',
            target: 'editing',
            actions: [
              assign({ setup: ({ context }) => ({ ...context.setup, urlReferralCode: null }), formError: () => ({ key: 'register:referral_dropped' }) }),
              'captchaUsed',
              'referralDropped',
            ],
          },
          {
            target: 'editing',
            actions: [
              assign(({ context, event }) => {
                const { fields, form } = serverErrors(event.error, context.kind);
                return { errors: fields, formError: form };
              }),
              'captchaUsed',
            ],
          },
        ],
      },
    },
    registered: { type: 'final' },
  },
});
