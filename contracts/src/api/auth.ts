import { z } from 'zod';
import { defineCall, ZNoQuery } from './envelope.ts';
import { REGISTRATION_FIELDS } from '../domain/registration.ts';
import { LANGUAGE_CODES } from '../domain/constants.ts';

/**
 * Accounts: login, registration, SMS codes, recovery, sessions (spec sections 3-8, Auth calls).
 * Inputs are trimmed where the spec says so: everything except passwords and the SMS code.
 */
const trimmed = (max: number) => z.string().trim().max(max);
const secret = (max = 128) => z.string().max(max);

/** The self-hosted bot check (in place of geetest): a solved challenge's id and answer. */
export const ZBotCheck = z.object({ botId: z.string().max(64), botAnswer: z.coerce.number().int().min(0).max(1000) }).strict();

export const ZLoginBody = z
  .object({
    /** For sms logins: the mobile number. */
    username: trimmed(64),
    /** For sms logins: the SMS verification code (not trimmed). */
    password: secret(),
    type: z.enum(['username', 'sms']).default('username'),
    countryDialingCode: trimmed(5).optional(),
    captcha: trimmed(8).optional(),
    captchaKey: z.string().max(64).optional(),
    botId: z.string().max(64).optional(),
    /** The slider's answer: where the piece was let go, left edge (x) and top edge (y), in image pixels. */
    botAnswer: z.coerce.number().int().min(0).max(1000).optional(),
    botAnswerY: z.coerce.number().int().min(0).max(1000).optional(),
    /** The login happens on the agent page: only agents may pass. */
    agentLogin: z.boolean().optional(),
  })
  .strict();
export type TLoginBody = z.infer<typeof ZLoginBody>;

export const ZLoginValue = z.object({
  token: z.string(),
  firstTimeLogin: z.boolean(),
  passwordExpired: z.boolean(),
  /** The password is the default one ('{secret}'): a change is forced. */
  defaultPassword: z.boolean(),
  isAgent: z.boolean(),
  isTrial: z.boolean(),
  /**
   * Responsible gaming: the member is excluded (self-exclusion, cooling-off, family, operator,
   * restricted person). The session is a restricted one: the balance can be withdrawn and the RG page
   * read, but every call that plays, deposits, bets or transfers answers RG_EXCLUDED.
   */
  rgExclusion: z.object({ kind: z.string(), until: z.string().nullable() }).nullable().optional(),
});
export type TLoginValue = z.infer<typeof ZLoginValue>;

/** Failure details carried in `value` of an error envelope. */
export const ZLoginFailureValue = z.object({
  captcha: z.boolean().optional(),
  /** Login from an unregistered IP: a second step is needed. */
  challengeId: z.string().optional(),
  methods: z.array(z.enum(['sms', 'email', 'totp'])).optional(),
});

export const ZVerifyBody = z.object({ challengeId: z.string().max(64), method: z.enum(['sms', 'email', 'totp']), code: z.string().trim().max(8) }).strict();

/** The language of a text the portal sends (SMS, e-mail): one of the language codes, or none. */
const ZTextLanguage = z.enum(LANGUAGE_CODES).optional();
/** `language`: the page's, for the code's text (none: the brand's default), as the other codes sent take it. */
export const ZVerifySendBody = z.object({ challengeId: z.string().max(64), method: z.enum(['sms', 'email']), language: ZTextLanguage }).strict();

export const ZSmsNoLoginBody = z
  .object({
    mobileNum: trimmed(20),
    countryDialingCode: trimmed(5).default('63'),
    /** What the code is for. */
    purpose: z.enum(['login', 'reset']).default('login'),
    /** The page's language: the text is sent in it (EN and TY; others EN; none: the brand's default). */
    language: ZTextLanguage,
    botId: z.string().max(64).optional(),
    botAnswer: z.coerce.number().int().min(0).max(1000).optional(),
  })
  .strict();
export const ZSmsRegisterBody = z
  .object({
    mobileNo: trimmed(20),
    countryDialingCode: trimmed(5).default('63'),
    language: ZTextLanguage,
    /** The solved slider (a challenge of purpose 'sms-register' for this mobileNo): required while the merchant's bot check is on. */
    botId: z.string().max(64).optional(),
    botAnswer: z.coerce.number().int().min(0).max(1000).optional(),
    botAnswerY: z.coerce.number().int().min(0).max(1000).optional(),
  })
  .strict();
export const ZSmsValue = z.object({ expiredMinutes: z.number().int().positive() });

const registrationShape = Object.fromEntries(
  REGISTRATION_FIELDS.map((f) => [f, (f.toLowerCase().includes('password') ? secret() : trimmed(128)).optional()]),
) as Record<(typeof REGISTRATION_FIELDS)[number], z.ZodOptional<z.ZodString>>;

export const ZRegisterBody = z
  .object({
    ...registrationShape,
    captchaKey: z.string().max(64).optional(),
    countryDialingCode: trimmed(5).optional(),
    referralCode: trimmed(32).optional(),
    domain: trimmed(255).optional(),
    registerUrl: trimmed(1024).optional(),
    registerMethod: z.literal('WEB').default('WEB'),
    login: z.boolean().default(true),
    /** The player confirms being of age for this market. */
    ageConfirmed: z.boolean(),
    termsAccepted: z.boolean(),
    nickname: trimmed(32).optional(),
    botId: z.string().max(64).optional(),
    botAnswer: z.coerce.number().int().min(0).max(1000).optional(),
  })
  .strict();
export type TRegisterBody = z.infer<typeof ZRegisterBody>;
/** With `login: true` (the default) the registration signs the player in and carries the login value. */
export const ZRegisterValue = ZLoginValue.partial().extend({ memberId: z.number().int() });

export const ZAffiliateQuery = z.object({ code: trimmed(32), domain: trimmed(255).optional() }).strict();

export const ZChangePasswordBody = z
  .object({ oldPassword: secret().optional(), newPassword: secret(), confirmNewPassword: secret() })
  .strict();
export const ZForgotEmailBody = z.object({ username: trimmed(64), email: trimmed(128), language: ZTextLanguage }).strict();
export const ZResetByTokenBody = z.object({ resetToken: z.string().max(128), newPassword: secret(), confirmNewPassword: secret() }).strict();
export const ZResetByMobileBody = z
  .object({
    newPassword: secret(),
    confirmNewPassword: secret().optional(),
    mobileNum: trimmed(20),
    countryDialingCode: trimmed(5).default('63'),
    /** Not trimmed: the spec trims every input but the SMS code. */
    verificationCode: z.string().max(8),
  })
  .strict();

export const ZFreePlayBody = z.object({ os: trimmed(32).optional(), platform: z.literal('W').default('W') }).strict();

export const ZCaptchaValue = z.object({ captchaKey: z.string(), image: z.string() });
/** A slider challenge is for one login of one account: it passes only for that account, once. */
/**
 * A slider challenge for `purpose`, bound to `account`: the login's username, or for 'sms-register'
 * (the registration SMS, spec "countryDialingCode, mobileNo plus geetest fields") the mobile number as
 * the form sends it in `mobileNo`.
 */
/** `account`: the username (login) or mobile number (SMS registration) the challenge is for: one is needed. */
export const ZBotChallengeQuery = z.object({ account: trimmed(64).min(1), purpose: z.enum(['login', 'sms-register']).default('login') }).strict();
/** The picture (width x height) with the hole; the piece starts at the left edge, `pieceY` down (not the hole's row). */
export const ZBotChallengeValue = z.object({ botId: z.string(), image: z.string(), width: z.number().int(), height: z.number().int(), pieceY: z.number().int() });

export const ZMemberInfo = z.object({
  id: z.number().int(),
  account: z.string(),
  nickname: z.string().nullable(),
  type: z.number().int(),
  isAgent: z.boolean(),
  isTrial: z.boolean(),
  currencySymbol: z.string(),
  language: z.string(),
  imgUrl: z.string().nullable(),
  mobileNum: z.string().nullable(),
  email: z.string().nullable(),
  totpEnabled: z.boolean(),
  /** The member has an upline (a parent in the team tree): a transfer to the upline is possible. */
  hasUpline: z.boolean().optional(),
  /** Responsible gaming: the exclusion in force (restricted session: withdraw and RG page only), else null. */
  rgExclusion: z.object({ kind: z.string(), until: z.string().nullable() }).nullable().optional(),
  /**
   * This session was opened by a login whose password must change (the default password, or an expired
   * one where the merchant forces the change): until it does, the session reads but its only write is
   * the change (and signing out); anything else answers 403 PASSWORD_CHANGE_REQUIRED.
   */
  passwordChangeRequired: z.boolean().optional(),
});
export type TMemberInfo = z.infer<typeof ZMemberInfo>;

/** The profile pictures a member picks from (spec: /wps/member/info/icon); drawn by the portal at /img/avatar/<icon>.svg. */
export const MEMBER_ICONS = ['a01', 'a02', 'a03', 'a04', 'a05', 'a06', 'a07', 'a08', 'a09', 'a10', 'a11', 'a12'] as const;
export type MemberIcon = (typeof MEMBER_ICONS)[number];
export const memberIconUrl = (icon: MemberIcon) => `/img/avatar/${icon}.svg`;
export const ZMemberIconBody = z.object({ icon: z.enum(MEMBER_ICONS) }).strict();
/** A code to a number the signed-in member is adding to the account (security centre). */
export const ZSmsBindBody = z.object({ mobileNum: trimmed(20), countryDialingCode: trimmed(5).default('63'), language: ZTextLanguage }).strict();
/** The number, the code sent to it, and the login password (a session alone does not change how the account is recovered). */
export const ZBindMobileBody = z.object({ mobileNum: trimmed(20), countryDialingCode: trimmed(5).default('63'), verificationCode: z.string().max(8), password: secret() }).strict();
export const ZBindEmailBody = z.object({ email: trimmed(128), password: secret() }).strict();
/** What the security centre shows after a change: the masked number, the e-mail. */
export const ZContactValue = z.object({ mobileNum: z.string().nullable(), email: z.string().nullable() });

export const ZFieldRule = z.object({
  field: z.enum(REGISTRATION_FIELDS),
  enabled: z.boolean(),
  required: z.boolean(),
  acceptedPattern: z.string(),
  patternId: z.number().int().min(0).max(20),
  minLength: z.number().int().min(0),
  maxLength: z.number().int().min(0),
  type: z.enum(['text', 'password', 'email', 'tel', 'date']),
});
export type TFieldRule = z.infer<typeof ZFieldRule>;
export const ZRegisterSettings = z.object({
  fields: z.array(ZFieldRule),
  minAge: z.number().int(),
  smsExpiredMinutes: z.number().int(),
  countries: z.array(z.object({ countryCode: z.string(), countryDialingCode: z.string() })),
});

export const ZTotpSetupValue = z.object({ secret: z.string(), otpauthUrl: z.string(), qr: z.string() });
export const ZTotpEnableBody = z.object({ code: z.string().trim().regex(/^\d{6}$/) }).strict();

const NoBody = z.object({}).strict();

/** The SMS sends' success message (spec section 7: "response success, message, value.expiredMinutes"). */
const SMS_SENT = 'Verification code sent';

export const authCalls = {
  login: defineCall({ method: 'POST', path: '/wps/session/login', auth: false, body: ZLoginBody, value: ZLoginValue }),
  loginVerifySend: defineCall({ method: 'POST', path: '/wps/session/login/verify/send', auth: false, body: ZVerifySendBody, value: ZSmsValue }),
  loginVerify: defineCall({ method: 'POST', path: '/wps/session/login/verify', auth: false, body: ZVerifyBody, value: ZLoginValue }),
  freePlay: defineCall({ method: 'POST', path: '/wps/session/login/freeplay', auth: false, body: ZFreePlayBody, value: ZLoginValue }),
  logout: defineCall({ method: 'DELETE', path: '/wps/session/logout', auth: true, trial: true, value: z.object({}) }),
  /** Keep this session's token in an HttpOnly cookie readable only by `restoreSession`, so a reload finds it. */
  keepSession: defineCall({ method: 'POST', path: '/wps/session/keep', auth: true, trial: true, body: NoBody, value: z.object({}) }),
  /** The kept session's token (from that cookie) when it is still live for this merchant; null otherwise (and the cookie goes). */
  restoreSession: defineCall({ method: 'GET', path: '/wps/session/keep', auth: false, query: ZNoQuery, value: z.object({ token: z.string().nullable() }) }),
  smsNoLogin: defineCall({ method: 'POST', path: '/wps/verification/sms/noLogin', auth: false, okMessage: SMS_SENT, body: ZSmsNoLoginBody, value: ZSmsValue }),
  smsRegister: defineCall({ method: 'POST', path: '/wps/verification/sms/register', auth: false, okMessage: SMS_SENT, body: ZSmsRegisterBody, value: ZSmsValue }),
  register: defineCall({ method: 'PUT', path: '/wps/member/register', auth: false, body: ZRegisterBody, value: ZRegisterValue }),
  registerMobile: defineCall({ method: 'PUT', path: '/wps/member/register/mobile', auth: false, body: ZRegisterBody, value: ZRegisterValue }),
  affiliate: defineCall({ method: 'GET', path: '/wps/agent/affiliate', auth: false, query: ZAffiliateQuery, value: z.object({ valid: z.literal(true) }) }),
  changePassword: defineCall({ method: 'POST', path: '/wps/member/password', auth: true, body: ZChangePasswordBody, value: ZLoginValue }),
  forgotByEmail: defineCall({ method: 'POST', path: '/wps/member/password/email', auth: false, body: ZForgotEmailBody, value: z.object({}) }),
  resetByToken: defineCall({ method: 'POST', path: '/wps/member/password/reset', auth: false, body: ZResetByTokenBody, value: ZLoginValue }),
  resetByMobile: defineCall({ method: 'POST', path: '/wps/member/password/verification', auth: false, body: ZResetByMobileBody, value: ZLoginValue }),
  captcha: defineCall({ method: 'GET', path: '/wps/captcha', auth: false, query: ZNoQuery, value: ZCaptchaValue }),
  botChallenge: defineCall({ method: 'GET', path: '/wps/botcheck', auth: false, query: ZBotChallengeQuery, value: ZBotChallengeValue }),
  memberInfo: defineCall({ method: 'GET', path: '/wps/member/info', auth: true, trial: true, query: ZNoQuery, value: ZMemberInfo }),
  /** Sets the member's profile picture (one of MEMBER_ICONS); answers its URL, as memberInfo's imgUrl. */
  memberIcon: defineCall({ method: 'PUT', path: '/wps/member/info/icon', auth: true, body: ZMemberIconBody, value: z.object({ imgUrl: z.string() }) }),
  /** Security centre: a code to the mobile number being added or changed. */
  smsBind: defineCall({ method: 'POST', path: '/wps/verification/sms/bind', auth: true, okMessage: SMS_SENT, body: ZSmsBindBody, value: ZSmsValue }),
  /** Security centre: add or change the mobile number (its code and the login password). */
  bindMobile: defineCall({ method: 'PUT', path: '/wps/member/info/mobile', auth: true, body: ZBindMobileBody, value: ZContactValue }),
  /** Security centre: add or change the e-mail address (the login password). */
  bindEmail: defineCall({ method: 'PUT', path: '/wps/member/info/email', auth: true, body: ZBindEmailBody, value: ZContactValue }),
  registerSettings: defineCall({ method: 'GET', path: '/wps/system/setting/register', auth: false, query: ZNoQuery, value: ZRegisterSettings }),
  totpSetup: defineCall({ method: 'POST', path: '/wps/member/totp/setup', auth: true, body: NoBody, value: ZTotpSetupValue }),
  totpEnable: defineCall({ method: 'POST', path: '/wps/member/totp/enable', auth: true, body: ZTotpEnableBody, value: z.object({ enabled: z.literal(true) }) }),
};

/**
 * Social sign-in through one OpenID Connect provider (code flow with PKCE). `start` and `callback`
 * are browser navigations answered with 302 redirects; the session token never travels in a URL:
 * the callback hands the page a one-time code that `oidcExchange` turns into a login value.
 */
export const OIDC_PATHS = {
  start: '/wps/session/oidc/start',
  callback: '/wps/session/oidc/callback',
} as const;
/** The query parameter carrying the one-time handoff code back to the page. */
export const OIDC_HANDOFF_PARAM = 'oidc';
/** The query parameter carrying an error code (an ErrorCode) back to the page. */
export const OIDC_ERROR_PARAM = 'oidcError';

export const ZOidcConfigValue = z.object({
  /** A provider is configured: show the button. */
  enabled: z.boolean(),
  /** Display name of the provider ("Continue with {providerName}"). */
  providerName: z.string(),
});
export type TOidcConfigValue = z.infer<typeof ZOidcConfigValue>;
/** `returnTo`: a same-site path starting with '/'; anything else is replaced by '/'. */
export const ZOidcStartQuery = z.object({ returnTo: z.string().max(1024).optional() });
/** What the provider sends back; other parameters (iss, scope, ...) pass through to the code grant checks. */
export const ZOidcCallbackQuery = z.object({
  state: z.string().min(1).max(512),
  code: z.string().min(1).max(4096).optional(),
  error: z.string().max(256).optional(),
});
export const ZOidcExchangeBody = z.object({ code: z.string().min(16).max(128) }).strict();
/**
 * The identity step of a social sign-in, where the market screens identities (the Philippines): the
 * exchange answers IDENTITY_REQUIRED (the code stays valid for this step) and the page sends the
 * full name and birth date with the same code. The person is checked like a registration: the
 * payeeName field rule, the minimum age (UNDERAGE), the restricted-persons list (RESTRICTED_PERSON);
 * only then does the account exist (or, for an older social account, become usable).
 */
export const ZOidcIdentityBody = z.object({
  code: z.string().min(16).max(128),
  payeeName: z.string().trim().min(1).max(100),
  birthday: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date written YYYY-MM-DD'),
  ageConfirmed: z.boolean(),
}).strict();
export type TOidcIdentityBody = z.infer<typeof ZOidcIdentityBody>;

export const oidcCalls = {
  oidcConfig: defineCall({ method: 'GET', path: '/wps/session/oidc/config', auth: false, query: ZNoQuery, value: ZOidcConfigValue }),
  oidcExchange: defineCall({ method: 'POST', path: '/wps/session/oidc/exchange', auth: false, body: ZOidcExchangeBody, value: ZLoginValue }),
  oidcIdentity: defineCall({ method: 'POST', path: '/wps/session/oidc/identity', auth: false, body: ZOidcIdentityBody, value: ZLoginValue }),
};
