import { MOBILE_PATTERN } from './registration.ts';

// Mobile numbers per served country: its own module, loaded with the forms that take a number (the
// server's normaliseMobile and the client's SMS button), not with every page's first load.
export const DIALING_CODE_PATTERN = /^\+?\d{1,4}$/;
/**
 * A mobile number of each served country, as its national digits without the trunk zero: the Philippines
 * 9XX XXX XXXX (0917 123 4567), Vietnam 9 digits from 3, 5, 7, 8 or 9, Thailand 9 digits from 6, 8 or 9,
 * Indonesia 8 then 8 to 11 digits, Malaysia 1 then 8 or 9 digits. Any 7 to 15 digits passed, so a code was
 * texted (and paid for) to 1234567 or a Manila landline, and an account made on it.
 */
export const MOBILE_PATTERNS: Readonly<Record<string, RegExp>> = {
  '63': /^9\d{9}$/,
  '84': /^[35789]\d{8}$/,
  '66': /^[689]\d{8}$/,
  '62': /^8\d{8,11}$/,
  '60': /^1\d{8,9}$/,
};
/** Is `national` (digits, trunk zero dropped) a mobile number of the country `dialing` (no plus)? Other countries: the generic pattern. */
export const isMobileOf = (dialing: string, national: string): boolean =>
  MOBILE_PATTERN.test(national) && (MOBILE_PATTERNS[dialing]?.test(national) ?? true);

/**
 * A mobile number as a player writes it, read under the form's dialing code: spaces, brackets and dashes
 * dropped; +<code> written in full names its country (+84 917... under the form's +63 is a Vietnamese
 * number, it was read as the +63 number 84917...); a local trunk zero dropped. The country's digits and
 * dialing code without the plus, or null when it is not a mobile number of a served country (one with a
 * pattern in MOBILE_PATTERNS: a code is never texted elsewhere, +882 and other premium ranges cost the
 * merchant per message). The one reading of the client's check before a code is asked and the server's.
 */
export function readMobile(dialing: string, typed: string): { dialing: string; mobile: string } | null {
  let d = dialing.trim().replace(/^\+/, '');
  let n = typed.trim().replace(/[\s()-]/g, '');
  if (n.startsWith('+')) {
    const full = n.slice(1);
    const code = full.startsWith(d) ? d : Object.keys(MOBILE_PATTERNS).find((c) => full.startsWith(c));
    if (!code) return null;
    d = code;
    n = full.slice(code.length);
  }
  n = n.replace(/^0+/, '');
  if (!DIALING_CODE_PATTERN.test(d) || !MOBILE_PATTERNS[d] || !isMobileOf(d, n)) return null;
  return { dialing: d, mobile: n };
}
