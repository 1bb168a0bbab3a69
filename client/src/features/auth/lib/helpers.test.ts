import { describe, expect, it } from 'vitest';
import { clampLeft, toImageX } from './bot-slider';
import { EMPTY_LOGIN_FORM, smsDialingCode, validateLogin, validateMobile, validateSecondStepCode } from './login-validation';
import { homeDialingCode } from '../../../lib/register-settings';
import { createThrottle } from './throttle';

describe('bot slider geometry', () => {
  it('maps screen pixels to image pixels and clamps', () => {
    expect(toImageX(100, 280, 280)).toBe(100);
    expect(toImageX(70, 140, 280)).toBe(140);
    expect(toImageX(-5, 280, 280)).toBe(0);
    expect(toImageX(500, 280, 280)).toBe(240);
    expect(toImageX(10, 0, 280)).toBe(0);
    expect(clampLeft(300, 280, 280)).toBe(240);
    expect(clampLeft(-1, 280, 280)).toBe(0);
    expect(clampLeft(200, 140, 280)).toBe(120);
  });
});

describe('throttle', () => {
  it('runs at most once per period', () => {
    let t = 0;
    let runs = 0;
    const attempt = createThrottle(1000, () => t);
    expect(attempt(() => runs++)).toBe(true);
    t = 999;
    expect(attempt(() => runs++)).toBe(false);
    t = 1000;
    expect(attempt(() => runs++)).toBe(true);
    expect(runs).toBe(2);
  });
});

describe('login validation', () => {
  it('username type: required fields, captcha only when shown', () => {
    expect(validateLogin({ ...EMPTY_LOGIN_FORM, username: '  ' }, 'username', false)).toEqual({ username: 'field_required', password: 'field_required' });
    expect(validateLogin({ ...EMPTY_LOGIN_FORM, username: 'a', password: 'b' }, 'username', false)).toEqual({});
    expect(validateLogin({ ...EMPTY_LOGIN_FORM, username: 'a', password: 'b', captcha: '12' }, 'username', true)).toEqual({ captcha: 'captcha_required' });
    expect(validateLogin({ ...EMPTY_LOGIN_FORM, username: 'a', password: 'b', captcha: '12', captchaKey: 'k' }, 'username', true)).toEqual({});
  });

  it('sms type: mobile format and code', () => {
    expect(validateLogin(EMPTY_LOGIN_FORM, 'sms', true)).toEqual({ mobileNum: 'field_required', smsCode: 'field_required' });
    expect(validateLogin({ ...EMPTY_LOGIN_FORM, mobileNum: '12ab', smsCode: '1' }, 'sms', false)).toEqual({ mobileNum: 'mobile_invalid' });
    expect(validateMobile('917 123-4567')).toBeNull();
    expect(validateMobile('123')).toBe('mobile_invalid');
  });

  it('second-step codes are 6 digits', () => {
    expect(validateSecondStepCode(' 123456 ')).toBeNull();
    expect(validateSecondStepCode('12345')).toBe('code_invalid');
  });
});

describe("the SMS login's dialing code", () => {
  it("is the merchant's own: the first country of the register settings (the server puts its market first), +63 before they load", () => {
    expect(homeDialingCode(undefined)).toBe('63');
    expect(homeDialingCode({ countries: [{ countryCode: 'VN', countryDialingCode: '84' }, { countryCode: 'PH', countryDialingCode: '63' }] })).toBe('84');
    expect(smsDialingCode(EMPTY_LOGIN_FORM.countryDialingCode, '84')).toBe('84');
    expect(smsDialingCode('', '84')).toBe('84');
  });
  it('keeps a remembered code other than the default', () => {
    expect(smsDialingCode('66', '84')).toBe('66');
    expect(smsDialingCode('63', '63')).toBe('63');
  });
});
