import { describe, expect, it } from 'vitest';
import { EMPTY_LOGIN_FORM } from './login-validation';
import { clearRemembered, formFromRemembered, readRemembered, rememberLogin, REMEMBER_KEY, type KeyValueStore } from './remember-me';

function memory(): KeyValueStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, get: (k) => data.get(k) ?? null, set: (k, v) => (v === null ? data.delete(k) : data.set(k, v), undefined) };
}
const DAY = 24 * 60 * 60 * 1000;

describe('remember me', () => {
  it('keeps the username for one day and never the password', () => {
    const s = memory();
    rememberLogin({ ...EMPTY_LOGIN_FORM, username: ' player01 ', password: 'secret!', remember: true }, 'username', 1000, s);
    const raw = s.data.get(REMEMBER_KEY) ?? '';
    expect(raw).not.toContain('secret!');
    expect(readRemembered(1000 + DAY - 1, s)).toEqual({ username: 'player01', expiresAt: 1000 + DAY });
    expect(readRemembered(1000 + DAY, s)).toBeNull();
    expect(s.data.has(REMEMBER_KEY)).toBe(false);
  });

  it('keeps mobile number and dialing code for SMS logins, next to a remembered username', () => {
    const s = memory();
    rememberLogin({ ...EMPTY_LOGIN_FORM, username: 'player01', remember: true }, 'username', 0, s);
    rememberLogin({ ...EMPTY_LOGIN_FORM, mobileNum: '9171234567', countryDialingCode: '63', smsCode: '654321', remember: true }, 'sms', 10, s);
    expect(readRemembered(20, s)).toEqual({ username: 'player01', mobileNum: '9171234567', countryDialingCode: '63', expiresAt: 10 + DAY });
    expect(s.data.get(REMEMBER_KEY)).not.toContain('654321');
  });

  it('unchecking forgets everything; broken entries are dropped', () => {
    const s = memory();
    rememberLogin({ ...EMPTY_LOGIN_FORM, username: 'a', remember: true }, 'username', 0, s);
    rememberLogin({ ...EMPTY_LOGIN_FORM, username: 'a', remember: false }, 'username', 0, s);
    expect(readRemembered(0, s)).toBeNull();
    s.data.set(REMEMBER_KEY, '{bad');
    expect(readRemembered(0, s)).toBeNull();
    s.data.set(REMEMBER_KEY, JSON.stringify({ username: 'x' }));
    expect(readRemembered(0, s)).toBeNull();
    rememberLogin({ ...EMPTY_LOGIN_FORM, username: 'a', remember: true }, 'username', 0, s);
    clearRemembered(s);
    expect(s.data.size).toBe(0);
  });

  it('fills the form and ticks the box', () => {
    expect(formFromRemembered(EMPTY_LOGIN_FORM, null)).toBe(EMPTY_LOGIN_FORM);
    expect(formFromRemembered(EMPTY_LOGIN_FORM, { username: 'u', expiresAt: 1 })).toMatchObject({ username: 'u', countryDialingCode: '63', remember: true, password: '' });
  });
});
