import { LIMITS } from '@portal/contracts/domain/constants';
import { readStorage, writeStorage } from '../../../lib/storage';
import type { LoginFormValues, LoginType } from './login-validation';

/**
 * Remember me: the username (and for SMS logins the mobile number and dialing code) for 1 day in
 * localStorage with an expiry time. Never the password or the code.
 */
export const REMEMBER_KEY = 'portal.rememberMe';

export type Remembered = { username?: string; mobileNum?: string; countryDialingCode?: string; expiresAt: number };

export type KeyValueStore = { get: (key: string) => string | null; set: (key: string, value: string | null) => void };

const localStore: KeyValueStore = {
  get: (key) => readStorage('local', key),
  set: (key, value) => writeStorage('local', key, value),
};

export function readRemembered(now: number = Date.now(), store: KeyValueStore = localStore): Remembered | null {
  const raw = store.get(REMEMBER_KEY);
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<Remembered>;
    if (typeof v.expiresAt !== 'number' || v.expiresAt <= now) {
      store.set(REMEMBER_KEY, null);
      return null;
    }
    const str = (x: unknown) => (typeof x === 'string' && x ? x : undefined);
    const out: Remembered = { expiresAt: v.expiresAt };
    const username = str(v.username);
    const mobileNum = str(v.mobileNum);
    const countryDialingCode = str(v.countryDialingCode);
    if (username) out.username = username;
    if (mobileNum) out.mobileNum = mobileNum;
    if (countryDialingCode) out.countryDialingCode = countryDialingCode;
    return out;
  } catch {
    store.set(REMEMBER_KEY, null);
    return null;
  }
}

export function clearRemembered(store: KeyValueStore = localStore): void {
  store.set(REMEMBER_KEY, null);
}

/** After a successful login: keep what this login type used (for another day), or forget all when unchecked. */
export function rememberLogin(form: LoginFormValues, type: LoginType, now: number = Date.now(), store: KeyValueStore = localStore): void {
  if (!form.remember) return clearRemembered(store);
  const previous = readRemembered(now, store);
  const next: Remembered = { ...previous, expiresAt: now + LIMITS.REMEMBER_ME_MS };
  if (type === 'sms') {
    next.mobileNum = form.mobileNum.trim();
    next.countryDialingCode = form.countryDialingCode.trim();
  } else {
    next.username = form.username.trim();
  }
  store.set(REMEMBER_KEY, JSON.stringify(next));
}

/** The form as a remembered user finds it. */
export function formFromRemembered(base: LoginFormValues, r: Remembered | null): LoginFormValues {
  if (!r) return base;
  return {
    ...base,
    username: r.username ?? base.username,
    mobileNum: r.mobileNum ?? base.mobileNum,
    countryDialingCode: r.countryDialingCode ?? base.countryDialingCode,
    remember: true,
  };
}
