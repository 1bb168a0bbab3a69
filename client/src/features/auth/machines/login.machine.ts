import { assign, enqueueActions, fromPromise, setup } from 'xstate';
import { ErrorCode } from '@portal/contracts/api/errors';
import type { TBotChallenge, TLoginRequest, TLoginValue, TMemberInfo, TSecondStepMethod } from '../lib/auth-types';
import { validateLogin, validateSecondStepCode, type LoginFieldErrors, type LoginFormValues, type LoginType } from '../lib/login-validation';
import { isApiError } from '../../../lib/api';

export type LoginMachineInput = {
  /** Enabled login types in display order (USERNAMEREG3 -> username, MOBILEVERCODELOGIN3 -> sms). */
  types: readonly LoginType[];
  /** The agent page's form: only agents may pass. */
  agentLogin?: boolean;
  /** PWDEXPFORCECHANGE3: an expired password forces the change. */
  forceExpiredChange?: boolean;
  /** The merchant asks the slider bot check on username logins (whitelabel security.botCheck). */
  botCheck?: boolean;
};

export type SecondStep = { challengeId: string; methods: TSecondStepMethod[] };

export type LoginContext = {
  types: readonly LoginType[];
  type: LoginType;
  agentLogin: boolean;
  forceExpiredChange: boolean;
  botCheck: boolean;
  /** The values of the last valid submit. */
  form: LoginFormValues | null;
  fieldErrors: LoginFieldErrors;
  /** Error code of the last failure (translated by the view), or null. */
  error: string | null;
  /** The server asked for the image captcha. */
  isCaptchaShown: boolean;
  /** Bumped whenever the captcha must be reloaded (shown, or used by a failed login). */
  captchaVersion: number;
  bot: TBotChallenge | null;
  /** Where the piece was let go, in image pixels. */
  botAnswer: { x: number; y: number } | null;
  secondStep: SecondStep | null;
  method: TSecondStepMethod | null;
  login: TLoginValue | null;
  member: TMemberInfo | null;
  /** The login was the free-play one (a trial user). */
  isFreePlay: boolean;
};

export type LoginEvent =
  | { type: 'SWITCH_TYPE'; loginType: LoginType }
  | { type: 'SUBMIT'; form: LoginFormValues }
  | { type: 'BOT_SOLVED'; x: number; y: number }
  | { type: 'BOT_CANCEL' }
  | { type: 'PICK_METHOD'; method: TSecondStepMethod }
  | { type: 'VERIFY'; code: string }
  | { type: 'BACK' }
  | { type: 'FREE_PLAY' }
  | { type: 'DISMISS_ERROR' };

function failureValue(error: unknown): Record<string, unknown> {
  return isApiError(error) && typeof error.value === 'object' && error.value !== null ? (error.value as Record<string, unknown>) : {};
}

const codeOf = (error: unknown) => (isApiError(error) ? error.code : ErrorCode.INTERNAL);

/** The failure asks for a captcha: flagged in its value, or a captcha error. */
function asksForCaptcha(error: unknown): boolean {
  const code = codeOf(error);
  return failureValue(error).captcha === true || code === ErrorCode.CAPTCHA_REQUIRED || code === ErrorCode.CAPTCHA_INVALID;
}

function secondStepOf(error: unknown): SecondStep | null {
  if (codeOf(error) !== ErrorCode.VERIFICATION_REQUIRED) return null;
  const v = failureValue(error);
  const methods = Array.isArray(v.methods) ? v.methods.filter((m): m is TSecondStepMethod => m === 'sms' || m === 'email' || m === 'totp') : [];
  return typeof v.challengeId === 'string' && methods.length ? { challengeId: v.challengeId, methods } : null;
}

/** The login body from the submitted form (spec: sms puts the mobile number in username, the code in password). */
export function loginRequestOf(context: Pick<LoginContext, 'form' | 'type' | 'agentLogin' | 'isCaptchaShown' | 'bot' | 'botAnswer'>): TLoginRequest {
  const f = context.form;
  if (!f) throw new Error('no form');
  const agent = context.agentLogin ? { agentLogin: true } : {};
  if (context.type === 'sms') {
    return { type: 'sms', username: f.mobileNum.trim().replace(/[\s-]/g, ''), password: f.smsCode, countryDialingCode: f.countryDialingCode.trim(), ...agent };
  }
  return {
    type: 'username',
    username: f.username.trim(),
    password: f.password,
    ...(context.isCaptchaShown ? { captcha: f.captcha.trim(), captchaKey: f.captchaKey } : {}),
    ...(context.bot && context.botAnswer !== null ? { botId: context.bot.botId, botAnswer: context.botAnswer.x, botAnswerY: context.botAnswer.y } : {}),
    ...agent,
  };
}

/**
 * Login (spec section 4): type tabs, validation, the slider bot check for username logins, the
 * captcha when the server asks, a second step from an unregistered IP, free play, and the success
 * path: store the token, first-login popups, forced password change or member info, then finish.
 */
export const loginMachine = setup({
  types: {
    context: {} as LoginContext,
    events: {} as LoginEvent,
    input: {} as LoginMachineInput,
  },
  actors: {
    /** The challenge is issued for the account being signed in (the server binds it). */
    loadBotChallenge: fromPromise<TBotChallenge, { account: string }>(async () => {
      throw new Error('loadBotChallenge is not provided');
    }),
    login: fromPromise<TLoginValue, TLoginRequest>(async () => {
      throw new Error('login is not provided');
    }),
    verifyLogin: fromPromise<TLoginValue, { challengeId: string; method: TSecondStepMethod; code: string }>(async () => {
      throw new Error('verifyLogin is not provided');
    }),
    freePlay: fromPromise<TLoginValue>(async () => {
      throw new Error('freePlay is not provided');
    }),
    loadMember: fromPromise<TMemberInfo>(async () => {
      throw new Error('loadMember is not provided');
    }),
  },
  actions: {
    /** Keep the token (lib/session) and the login flags. */
    storeSession: (_, _params: { login: TLoginValue }) => {},
    /** Remember me: keep or forget the username (never the password). */
    rememberUser: (_, _params: { form: LoginFormValues; type: LoginType }) => {},
    /** First login: the execution-F popups. */
    showFirstLoginPopups: () => {},
    /** openPopup('changePassModal', { forced: true }). */
    openChangePassword: () => {},
    /** The after-login flag and member info for the rest of the app. */
    afterLogin: (_, _params: { member: TMemberInfo | null }) => {},
    /** Close the popup (the form is done). */
    finish: () => {},
    goAgentHome: () => {},
    goHome: () => {},
  },
  guards: {
    isTypeAllowed: ({ context, event }) => event.type === 'SWITCH_TYPE' && context.types.includes(event.loginType),
    isFormInvalid: ({ context, event }) =>
      event.type === 'SUBMIT' && Object.keys(validateLogin(event.form, context.type, context.isCaptchaShown)).length > 0,
    needsBotCheck: ({ context }) => context.type === 'username' && context.botCheck,
    isSecondStep: ({ event }) => 'error' in event && secondStepOf(event.error) !== null,
    isCodeInvalid: ({ event }) => event.type === 'VERIFY' && validateSecondStepCode(event.code) !== null,
    isMethodOffered: ({ context, event }) => event.type === 'PICK_METHOD' && !!context.secondStep?.methods.includes(event.method),
    isChallengeGone: ({ event }) => 'error' in event && codeOf(event.error) === ErrorCode.VERIFICATION_REQUIRED,
    mustChangePassword: ({ context }) =>
      !!context.login &&
      context.type !== 'sms' &&
      !context.isFreePlay &&
      (context.login.defaultPassword || (context.forceExpiredChange && context.login.passwordExpired)),
  },
}).createMachine({
  id: 'login',
  context: ({ input }) => ({
    types: input.types,
    type: input.types[0] ?? 'username',
    agentLogin: input.agentLogin ?? false,
    forceExpiredChange: input.forceExpiredChange ?? false,
    botCheck: input.botCheck ?? true,
    form: null,
    fieldErrors: {},
    error: null,
    isCaptchaShown: false,
    captchaVersion: 0,
    bot: null,
    botAnswer: null,
    secondStep: null,
    method: null,
    login: null,
    member: null,
    isFreePlay: false,
  }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        SWITCH_TYPE: {
          guard: 'isTypeAllowed',
          actions: assign({ type: ({ event }) => event.loginType, fieldErrors: {}, error: null }),
        },
        SUBMIT: [
          {
            guard: 'isFormInvalid',
            actions: assign({ fieldErrors: ({ context, event }) => validateLogin(event.form, context.type, context.isCaptchaShown), error: null }),
          },
          {
            guard: 'needsBotCheck',
            target: 'botLoading',
            actions: assign({ form: ({ event }) => event.form, fieldErrors: {}, error: null }),
          },
          { target: 'loggingIn', actions: assign({ form: ({ event }) => event.form, fieldErrors: {}, error: null }) },
        ],
        FREE_PLAY: { target: 'freePlaying', actions: assign({ error: null }) },
        DISMISS_ERROR: { actions: assign({ error: null }) },
      },
    },
    /** One try per challenge: a fresh one for every submit. */
    botLoading: {
      entry: assign({ bot: null, botAnswer: null }),
      invoke: {
        id: 'loadBotChallenge',
        src: 'loadBotChallenge',
        input: ({ context }) => ({ account: context.form?.username.trim() ?? '' }),
        onDone: { target: 'botSolving', actions: assign({ bot: ({ event }) => event.output }) },
        onError: { target: 'idle', actions: assign({ error: ({ event }) => codeOf(event.error) }) },
      },
    },
    botSolving: {
      on: {
        BOT_SOLVED: {
          target: 'loggingIn',
          actions: assign({ botAnswer: ({ event }) => ({ x: Math.max(0, Math.round(event.x)), y: Math.max(0, Math.round(event.y)) }) }),
        },
        BOT_CANCEL: { target: 'idle', actions: assign({ bot: null }) },
      },
    },
    loggingIn: {
      invoke: {
        id: 'login',
        src: 'login',
        input: ({ context }) => loginRequestOf(context),
        onDone: { target: 'success', actions: assign({ login: ({ event }) => event.output }) },
        onError: [
          {
            guard: 'isSecondStep',
            target: 'secondStep',
            actions: assign(({ event }) => {
              const step = secondStepOf(event.error);
              return { secondStep: step, method: step?.methods[0] ?? null, error: null, bot: null, botAnswer: null };
            }),
          },
          {
            target: 'idle',
            actions: assign(({ context, event }) => {
              const captcha = context.isCaptchaShown || asksForCaptcha(event.error);
              return {
                error: codeOf(event.error),
                isCaptchaShown: captcha,
                // A captcha is single use: any failed try with one needs a new image.
                captchaVersion: captcha ? context.captchaVersion + 1 : context.captchaVersion,
                bot: null,
                botAnswer: null,
              };
            }),
          },
        ],
      },
    },
    secondStep: {
      on: {
        PICK_METHOD: { guard: 'isMethodOffered', actions: assign({ method: ({ event }) => event.method, fieldErrors: {}, error: null }) },
        VERIFY: [
          { guard: 'isCodeInvalid', actions: assign({ fieldErrors: { code: 'code_invalid' }, error: null }) },
          { target: 'verifying', actions: assign({ fieldErrors: {}, error: null }) },
        ],
        BACK: { target: 'idle', actions: assign({ secondStep: null, method: null, error: null, fieldErrors: {} }) },
        DISMISS_ERROR: { actions: assign({ error: null }) },
      },
    },
    verifying: {
      invoke: {
        id: 'verifyLogin',
        src: 'verifyLogin',
        input: ({ context, event }) => ({
          challengeId: context.secondStep?.challengeId ?? '',
          method: context.method ?? 'sms',
          code: event.type === 'VERIFY' ? event.code.trim() : '',
        }),
        onDone: { target: 'success', actions: assign({ login: ({ event }) => event.output }) },
        onError: [
          // Expired, used up or too many tries: start over.
          { guard: 'isChallengeGone', target: 'idle', actions: assign({ error: ({ event }) => codeOf(event.error), secondStep: null, method: null }) },
          { target: 'secondStep', actions: assign({ error: ({ event }) => codeOf(event.error) }) },
        ],
      },
    },
    freePlaying: {
      invoke: {
        id: 'freePlay',
        src: 'freePlay',
        onDone: {
          target: 'done',
          actions: [
            assign({ login: ({ event }) => event.output, isFreePlay: true }),
            { type: 'storeSession', params: ({ event }) => ({ login: event.output }) },
            'goHome',
          ],
        },
        onError: { target: 'idle', actions: assign({ error: ({ event }) => codeOf(event.error) }) },
      },
    },
    success: {
      entry: enqueueActions(({ context, enqueue }) => {
        if (context.login) enqueue({ type: 'storeSession', params: { login: context.login } });
        if (context.form) enqueue({ type: 'rememberUser', params: { form: context.form, type: context.type } });
        if (context.login?.firstTimeLogin) enqueue('showFirstLoginPopups');
      }),
      always: [{ guard: 'mustChangePassword', target: 'passwordChange' }, { target: 'loadingMember' }],
    },
    passwordChange: {
      type: 'final',
      entry: ['finish', 'openChangePassword'],
    },
    loadingMember: {
      invoke: {
        id: 'loadMember',
        src: 'loadMember',
        onDone: { target: 'done', actions: [assign({ member: ({ event }) => event.output }), { type: 'afterLogin', params: ({ event }) => ({ member: event.output }) }] },
        // The token works; the header loads the member again.
        onError: { target: 'done', actions: { type: 'afterLogin', params: { member: null } } },
      },
    },
    done: {
      type: 'final',
      entry: enqueueActions(({ context, enqueue }) => {
        enqueue('finish');
        if (context.agentLogin && !context.isFreePlay) enqueue('goAgentHome');
      }),
    },
  },
});
