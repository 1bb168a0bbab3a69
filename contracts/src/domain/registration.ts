import { compilePattern, patternMessage } from './patterns.ts';

/** Registration fields whose rules come from the server's per-field config. */
export const REGISTRATION_FIELDS = [
  'username', 'password', 'confirmPassword', 'payeeName', 'email', 'qqNum', 'mobileNum', 'recommenderId', 'captcha',
  'verificationCode', 'affiliateCode', 'paymentPassword', 'line', 'whatsapp', 'facebook', 'wechat', 'idNumber', 'birthday',
] as const;
export type RegistrationField = (typeof REGISTRATION_FIELDS)[number];

export type FieldRule = {
  enabled: boolean;
  required: boolean;
  /** A regular expression source, or '*' for any characters. */
  acceptedPattern: string;
  patternId: number;
  minLength: number;
  maxLength: number;
  type: 'text' | 'password' | 'email' | 'tel' | 'date';
};

export type FieldProblem =
  | { kind: 'required' }
  | { kind: 'pattern'; key: string; min: number; max: number; range: string }
  | { kind: 'mismatch' };

/** One field against its rule: null when fine. Empty optional fields pass. */
export function checkField(rule: FieldRule, raw: string | undefined | null): FieldProblem | null {
  const value = raw ?? '';
  if (!rule.enabled) return null;
  if (value === '') return rule.required ? { kind: 'required' } : null;
  const len = [...value].length;
  const ok = len >= rule.minLength && len <= rule.maxLength && compilePattern(rule.acceptedPattern).test(value);
  if (ok) return null;
  const { key, range } = patternMessage(rule.patternId, rule.minLength, rule.maxLength);
  return { kind: 'pattern', key, min: rule.minLength, max: rule.maxLength, range };
}

/**
 * The matching key of a full name: accents dropped (NFKD), lower case, every run of characters that
 * are not letters or digits a single separator, and the words sorted, so "DELA CRUZ, Juan" and
 * "Juan dela Cruz" are one key. The restricted-persons list matches on this key and the birth date.
 */
export function rgNameKey(fullName: string): string {
  return fullName
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .sort()
    .join(' ');
}

/**
 * The full-name rule where a market screens identities (registration's identity fields, the identity
 * step of a social sign-in): the merchant's payeeName rule made required, and a name whose matching
 * key is empty (only punctuation or spaces) counts as no name. Server and client use this one rule.
 */
export function identityNameProblem(rule: FieldRule, raw: string | undefined | null): FieldProblem | null {
  const problem = checkField({ ...rule, enabled: true, required: true }, raw);
  if (problem) return problem;
  return rgNameKey(raw ?? '') ? null : { kind: 'required' };
}

/** Mobile numbers: country dialing code plus national digits (E.164 up to 15 digits in all). */
export const MOBILE_PATTERN = /^\d{7,15}$/;
export const SMS_CODE_PATTERN = /^\d{6}$/;

// merchantClock lives in clock.ts (the client's list times need it without the registration rules).
export { merchantClock } from './clock.ts';

/** Age in whole years on `today` (its UTC date: pass merchantClock() for the merchant's calendar) for a yyyy-MM-dd birthday. */
export function ageOn(birthday: string, today: Date): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(birthday);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // A date the calendar does not have (1990-02-30) is no birthday: null, as for a malformed one.
  const day = new Date(Date.UTC(y, mo - 1, d));
  if (day.getUTCFullYear() !== y || day.getUTCMonth() !== mo - 1 || day.getUTCDate() !== d) return null;
  let age = today.getUTCFullYear() - y;
  if (today.getUTCMonth() + 1 < mo || (today.getUTCMonth() + 1 === mo && today.getUTCDate() < d)) age--;
  return age;
}
