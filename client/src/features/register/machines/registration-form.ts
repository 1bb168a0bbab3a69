import type { TFieldRule, TRegisterBody } from '@portal/contracts/api/auth';
import { ErrorCode } from '@portal/contracts/api/errors';
import { ageOn, checkField, identityNameProblem, merchantClock, type RegistrationField } from '@portal/contracts/domain/registration';
import { isApiError } from '../../../lib/api';
import { errorMessage, MSG, problemMessage, serverDetailMessage, type FieldErrors, type FieldMessage } from '../../../lib/field-message';

/** The two registration types (spec section 4): by username, or by mobile number (the number is the username). */
export type RegisterKind = 'register' | 'registerMobile';

/** What the merchant allows and the page knows; fixed while the popup is open. */
export type RegistrationSetup = {
  rules: TFieldRule[];
  minAge: number;
  /** The merchant's clock (minutes east of UTC): the age is counted on its calendar, as the server does. */
  gmtOffsetMinutes: number;
  /** USERNAMEREG3 / MOBILENUMREG3, in that order. */
  kinds: RegisterKind[];
  /** REGMOBVERF3: an SMS code proves the number. */
  smsVerification: boolean;
  /** ?affiliateCode= or ?code= of the page address. */
  urlAffiliateCode: string | null;
  /** ?referralCode= of the page address: a member's referral link (member centre `referral`). */
  urlReferralCode?: string | null;
  domain: string;
  registerUrl: string;
  /** The merchant's own dialing code (lib/register-settings homeDialingCode): the mobile field's default. */
  dialingCode?: string;
};

export type RegistrationValues = Partial<Record<RegistrationField | 'captchaKey' | 'countryDialingCode', string>>;

/** Display order of the form. */
export const FIELD_ORDER: readonly RegistrationField[] = [
  'username', 'mobileNum', 'verificationCode', 'password', 'confirmPassword', 'payeeName', 'email', 'birthday',
  'paymentPassword', 'qqNum', 'line', 'whatsapp', 'facebook', 'wechat', 'idNumber', 'recommenderId', 'affiliateCode', 'captcha',
];

const NOT_TRIMMED = new Set<string>(['password', 'confirmPassword', 'paymentPassword', 'verificationCode']);

/** The rule the form applies to a field for this kind, or null when the field is not shown. */
export function effectiveRule(setup: RegistrationSetup, kind: RegisterKind, field: RegistrationField): TFieldRule | null {
  const rule = setup.rules.find((r) => r.field === field);
  if (!rule) return null;
  const mobile = kind === 'registerMobile';
  switch (field) {
    case 'username':
      return mobile ? null : enabledOrNull(rule);
    case 'mobileNum':
      return mobile ? { ...rule, enabled: true, required: true } : enabledOrNull(rule);
    case 'verificationCode': {
      // With SMS verification on the server asks the code for every number given: shown with the number,
      // required when the number is (mobile registration, or required by config).
      const mobileRule = setup.rules.find((r) => r.field === 'mobileNum');
      if (!setup.smsVerification || !(mobile || mobileRule?.enabled)) return null;
      return { ...rule, enabled: true, required: mobile || !!mobileRule?.required };
    }
    case 'password':
    case 'confirmPassword':
      // Both registration types need a password (spec section 5); the server refuses one without.
      return { ...rule, enabled: true, required: true };
    case 'paymentPassword':
      // Always required when shown (spec section 5).
      return rule.enabled ? { ...rule, required: true } : null;
    default:
      return enabledOrNull(rule);
  }
}

function enabledOrNull(rule: TFieldRule): TFieldRule | null {
  return rule.enabled ? rule : null;
}

export function visibleFields(setup: RegistrationSetup, kind: RegisterKind): { field: RegistrationField; rule: TFieldRule }[] {
  return FIELD_ORDER.flatMap((field) => {
    const rule = effectiveRule(setup, kind, field);
    return rule ? [{ field, rule }] : [];
  });
}

export function normalised(field: string, raw: string | undefined): string {
  const v = raw ?? '';
  return NOT_TRIMMED.has(field) ? v : v.trim();
}

/** Every problem of the form: field name (or 'terms', 'age') to message. Empty when it can be sent. */
export function validateRegistration(
  setup: RegistrationSetup,
  kind: RegisterKind,
  values: RegistrationValues,
  checks: { termsAccepted: boolean; ageConfirmed: boolean },
  today: Date = merchantClock(setup.gmtOffsetMinutes),
): FieldErrors {
  const errors: FieldErrors = {};
  for (const { field, rule: shownRule } of visibleFields(setup, kind)) {
    const value = normalised(field, values[field]);
    // The code is needed for a number given, even an optional one (the server proves every number given).
    const rule = field === 'verificationCode' && !shownRule.required && normalised('mobileNum', values.mobileNum) ? { ...shownRule, required: true } : shownRule;
    // A required full name: the server's own rule (a name of punctuation only is no name).
    const problem = field === 'payeeName' && rule.required ? identityNameProblem(rule, value) : checkField(rule, value);
    if (problem) errors[field] = problemMessage(problem);
  }
  const shown = new Set(visibleFields(setup, kind).map((f) => f.field));
  if (shown.has('confirmPassword') && !errors.confirmPassword && values.confirmPassword !== values.password) {
    errors.confirmPassword = MSG.confirmMismatch;
  }
  if (shown.has('birthday') && !errors.birthday && values.birthday) {
    const age = ageOn(values.birthday.trim(), today);
    // The pattern lets 1990-02-30 through; the calendar does not.
    if (age === null) errors.birthday = MSG.dateInvalid;
    else if (age < setup.minAge) errors.birthday = { key: 'register:underage', values: { age: setup.minAge } };
  }
  if (shown.has('paymentPassword') && !errors.paymentPassword && values.paymentPassword && values.paymentPassword === values.password) {
    errors.paymentPassword = MSG.passwordsMustDiffer;
  }
  if (!checks.termsAccepted) errors.terms = MSG.termsRequired;
  if (!checks.ageConfirmed) errors.age = { ...MSG.ageRequired, values: { age: setup.minAge } };
  return errors;
}

/** The invitation code sent: the field when shown, else the one of the page address. */
export function affiliateCodeOf(setup: RegistrationSetup, kind: RegisterKind, values: RegistrationValues): string | null {
  const shown = effectiveRule(setup, kind, 'affiliateCode') !== null;
  const code = shown ? normalised('affiliateCode', values.affiliateCode) : (setup.urlAffiliateCode ?? '').trim();
  return code || null;
}

/** The PUT body: the visible fields plus what the server needs (spec section 3). */
export function buildRegisterBody(
  setup: RegistrationSetup,
  kind: RegisterKind,
  values: RegistrationValues,
  checks: { termsAccepted: boolean; ageConfirmed: boolean },
): TRegisterBody {
  const body: Record<string, unknown> = {};
  for (const { field } of visibleFields(setup, kind)) {
    const v = normalised(field, values[field]);
    if (v !== '') body[field] = v;
  }
  if (kind === 'registerMobile') body.username = normalised('mobileNum', values.mobileNum);
  const affiliateCode = affiliateCodeOf(setup, kind, values);
  if (affiliateCode) body.affiliateCode = affiliateCode;
  const referralCode = (setup.urlReferralCode ?? '').trim();
  if (referralCode) body.referralCode = referralCode;
  if (body.captcha && values.captchaKey) body.captchaKey = values.captchaKey;
  if (body.mobileNum) body.countryDialingCode = values.countryDialingCode || setup.dialingCode || '63';
  return {
    ...body,
    domain: setup.domain,
    registerUrl: setup.registerUrl,
    registerMethod: 'WEB',
    login: true,
    termsAccepted: checks.termsAccepted,
    ageConfirmed: checks.ageConfirmed,
  } as TRegisterBody;
}

/** Where a refused registration shows its reason: per field when the server says which. */
export function serverErrors(error: unknown, kind: RegisterKind): { fields: FieldErrors; form: FieldMessage | null } {
  if (!isApiError(error)) return { fields: {}, form: errorMessage(error) };
  if (error.details.length) {
    const fields: FieldErrors = {};
    for (const d of error.details) fields[d.path] ??= serverDetailMessage(d.message);
    return { fields, form: null };
  }
  const at = (field: string) => ({ fields: { [field]: errorMessage(error) }, form: null });
  switch (error.code) {
    case ErrorCode.ACCOUNT_EXISTS:
      return at(kind === 'registerMobile' ? 'mobileNum' : 'username');
    case ErrorCode.MOBILE_EXISTS:
    case ErrorCode.INVALID_PHONE:
      return at('mobileNum');
    case ErrorCode.CAPTCHA_INVALID:
    case ErrorCode.CAPTCHA_REQUIRED:
      return at('captcha');
    case ErrorCode.SMS_CODE_MISSING:
    case ErrorCode.SMS_CODE_INVALID:
    case ErrorCode.SMS_CODE_EXPIRED:
      return at('verificationCode');
    case ErrorCode.PASSWORD_MISMATCH:
      return at('confirmPassword');
    case ErrorCode.TERMS_NOT_ACCEPTED:
      return { fields: { terms: MSG.termsRequired }, form: null };
    default:
      return { fields: {}, form: errorMessage(error) };
  }
}
