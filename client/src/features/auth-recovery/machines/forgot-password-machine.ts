import { assign, fromPromise, setup } from 'xstate';
import type { TFieldRule, TLoginValue } from '@portal/contracts/api/auth';
import { checkField, SMS_CODE_PATTERN } from '@portal/contracts/domain/registration';
import { MSG, problemMessage, type FieldErrors, type FieldMessage } from '../../../lib/field-message';
import { passwordServerErrors } from './set-password-machine';

export type ForgotTab = 'email' | 'mobile';
export type ForgotValues = {
  username: string;
  email: string;
  mobileNum: string;
  countryDialingCode: string;
  verificationCode: string;
  newPassword: string;
  confirmNewPassword: string;
};
export type ForgotInput = { defaultTab: ForgotTab; usernameRule: TFieldRule; emailRule: TFieldRule; mobileRule: TFieldRule; passwordRule: TFieldRule; /** The merchant's own dialing code (default +63). */ dialingCode?: string };

const must = (rule: TFieldRule): TFieldRule => ({ ...rule, enabled: true, required: true });

/** Spec section 5: by e-mail, username and e-mail by their rules; by mobile, number, SMS code and new password. */
export function validateForgot(input: ForgotInput, tab: ForgotTab, v: ForgotValues): FieldErrors {
  const errors: FieldErrors = {};
  const put = (field: keyof ForgotValues, rule: TFieldRule, value: string) => {
    const p = checkField(must(rule), value);
    if (p) errors[field] = problemMessage(p);
  };
  if (tab === 'email') {
    put('username', input.usernameRule, v.username.trim());
    put('email', input.emailRule, v.email.trim());
    return errors;
  }
  put('mobileNum', input.mobileRule, v.mobileNum.trim());
  if (v.verificationCode === '') errors.verificationCode = MSG.empty;
  else if (!SMS_CODE_PATTERN.test(v.verificationCode)) errors.verificationCode = MSG.codeInvalid;
  put('newPassword', input.passwordRule, v.newPassword);
  if (v.confirmNewPassword === '') errors.confirmNewPassword = MSG.empty;
  else if (v.confirmNewPassword !== v.newPassword) errors.confirmNewPassword = MSG.confirmMismatch;
  return errors;
}

/**
 * The forgot-password popup: an e-mail tab (a reset link is sent: message in_been_out) and a mobile
 * tab (SMS code and new password; the answer is a login value). I/O: `sendResetEmail`, `resetByMobile`.
 */
export const forgotPasswordMachine = setup({
  types: {
    context: {} as { input: ForgotInput; tab: ForgotTab; values: ForgotValues; errors: FieldErrors; formError: FieldMessage | null; login: TLoginValue | null },
    events: {} as
      | { type: 'TAB.SET'; tab: ForgotTab }
      | { type: 'FIELD.CHANGE'; field: keyof ForgotValues; value: string }
      | { type: 'SUBMIT' }
      | { type: 'BACK' },
    input: {} as ForgotInput,
  },
  actors: {
    sendResetEmail: fromPromise<unknown, { username: string; email: string }>(async () => {
      throw new Error('sendResetEmail is provided by the popup');
    }),
    resetByMobile: fromPromise<
      TLoginValue,
      { mobileNum: string; countryDialingCode: string; verificationCode: string; newPassword: string; confirmNewPassword: string }
    >(async () => {
      throw new Error('resetByMobile is provided by the popup');
    }),
  },
  guards: {
    isFormInvalid: ({ context }) => Object.keys(validateForgot(context.input, context.tab, context.values)).length > 0,
    isEmailTab: ({ context }) => context.tab === 'email',
  },
  actions: {
    storeSession: () => {},
    setTab: assign({ tab: ({ event }) => (event.type === 'TAB.SET' ? event.tab : 'email'), errors: () => ({}), formError: () => null }),
    showServerError: assign(({ event }) => {
      const { fields, form } = passwordServerErrors((event as { error?: unknown }).error);
      return { errors: fields, formError: form };
    }),
  },
}).createMachine({
  id: 'forgotPassword',
  context: ({ input }) => ({
    input,
    tab: input.defaultTab,
    values: { username: '', email: '', mobileNum: '', countryDialingCode: input.dialingCode ?? '63', verificationCode: '', newPassword: '', confirmNewPassword: '' },
    errors: {},
    formError: null,
    login: null,
  }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'TAB.SET': { actions: 'setTab' },
        'FIELD.CHANGE': {
          actions: assign({
            values: ({ context, event }) => ({ ...context.values, [event.field]: event.value }),
            errors: ({ context, event }) => ({ ...context.errors, [event.field]: undefined }),
          }),
        },
        SUBMIT: [
          { guard: 'isFormInvalid', actions: assign({ errors: ({ context }) => validateForgot(context.input, context.tab, context.values), formError: () => null }) },
          { guard: 'isEmailTab', target: 'sendingEmail', actions: assign({ formError: () => null }) },
          { target: 'resetting', actions: assign({ formError: () => null }) },
        ],
      },
    },
    sendingEmail: {
      invoke: {
        id: 'sendResetEmail',
        src: 'sendResetEmail',
        input: ({ context }) => ({ username: context.values.username.trim(), email: context.values.email.trim() }),
        onDone: 'emailSent',
        onError: { target: 'editing', actions: 'showServerError' },
      },
    },
    /** in_been_out: 'We have sent you an e-mail with a link to reset your password'. */
    emailSent: {
      on: { BACK: 'editing', 'TAB.SET': { target: 'editing', actions: 'setTab' } },
    },
    resetting: {
      invoke: {
        id: 'resetByMobile',
        src: 'resetByMobile',
        input: ({ context }) => ({
          mobileNum: context.values.mobileNum.trim(),
          countryDialingCode: context.values.countryDialingCode,
          verificationCode: context.values.verificationCode,
          newPassword: context.values.newPassword,
          confirmNewPassword: context.values.confirmNewPassword,
        }),
        onDone: { target: 'done', actions: [assign({ login: ({ event }) => event.output }), 'storeSession'] },
        onError: { target: 'editing', actions: 'showServerError' },
      },
    },
    done: { type: 'final' },
  },
});
