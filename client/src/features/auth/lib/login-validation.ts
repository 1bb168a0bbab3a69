import { MOBILE_PATTERN } from '@portal/contracts/domain/registration';

export type LoginType = 'username' | 'sms';

export type LoginFormValues = {
  username: string;
  password: string;
  captcha: string;
  captchaKey?: string;
  mobileNum: string;
  countryDialingCode: string;
  smsCode: string;
  remember: boolean;
};

/** Translation keys (namespace auth) of field problems. */
export type LoginFieldErrorKey = 'field_required' | 'mobile_invalid' | 'captcha_required' | 'code_invalid';
export type LoginField = 'username' | 'password' | 'captcha' | 'mobileNum' | 'smsCode' | 'code';
export type LoginFieldErrors = Partial<Record<LoginField, LoginFieldErrorKey>>;

export const EMPTY_LOGIN_FORM: LoginFormValues = {
  username: '',
  password: '',
  captcha: '',
  mobileNum: '',
  countryDialingCode: '63',
  smsCode: '',
  remember: false,
};

/**
 * The dialing code of the SMS login before one is picked: a remembered one, else the merchant's own
 * (`home`, first of the register settings' countries); the form's default +63 counts as none.
 */
export function smsDialingCode(formCode: string, home: string): string {
  const code = formCode.trim();
  return code && code !== EMPTY_LOGIN_FORM.countryDialingCode ? code : home;
}

/** A mobile number as the SMS login takes it: digits, 7 to 15 (spaces and dashes are ignored). */
export function validateMobile(mobileNum: string): LoginFieldErrorKey | null {
  const m = mobileNum.trim().replace(/[\s-]/g, '');
  if (!m) return 'field_required';
  return MOBILE_PATTERN.test(m) ? null : 'mobile_invalid';
}

/**
 * Spec section 5: username and password required (captcha too when shown); for SMS logins a mobile
 * number of mobile format and the code. Inputs are trimmed except the SMS code (and the password,
 * which is never altered).
 */
export function validateLogin(form: LoginFormValues, type: LoginType, isCaptchaShown: boolean): LoginFieldErrors {
  const errors: LoginFieldErrors = {};
  if (type === 'sms') {
    const mobile = validateMobile(form.mobileNum);
    if (mobile) errors.mobileNum = mobile;
    if (!form.smsCode) errors.smsCode = 'field_required';
    return errors;
  }
  if (!form.username.trim()) errors.username = 'field_required';
  if (!form.password) errors.password = 'field_required';
  if (isCaptchaShown && (!form.captcha.trim() || !form.captchaKey)) errors.captcha = 'captcha_required';
  return errors;
}

/** Second-step codes are 6 digits (SMS, e-mail or authenticator). */
export function validateSecondStepCode(code: string): LoginFieldErrorKey | null {
  return /^\d{6}$/.test(code.trim()) ? null : 'code_invalid';
}
