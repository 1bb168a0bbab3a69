/**
 * The invitation and referral codes of the link a visitor arrived by (`?affiliateCode=`, `?referralCode=`,
 * `/register?code=`), kept for the tab's visit (sessionStorage: codes anyone with the link has, nothing
 * of the visitor's). Closing the register popup, or browsing on before registering, lost them: the player
 * joined with no upline and the agent lost them.
 */
const KEY = 'register:arrivalCodes';
/** An address that carries such a code (main.tsx writes it out, to load this module only then). */
export const ARRIVAL_LINK = /[?&](?:affiliateCode|referralCode|code)=/;
export type ArrivalCodes = { affiliateCode: string | null; referralCode: string | null };

function stored(storage: Storage | null): ArrivalCodes {
  try {
    const v = JSON.parse(storage?.getItem(KEY) ?? 'null') as Partial<ArrivalCodes> | null;
    return { affiliateCode: typeof v?.affiliateCode === 'string' ? v.affiliateCode : null, referralCode: typeof v?.referralCode === 'string' ? v.referralCode : null };
  } catch {
    return { affiliateCode: null, referralCode: null };
  }
}

const session = (): Storage | null => {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
};

/** The codes of this address (`search`, `path`), else the ones kept from the link the visit began with. */
export function arrivalCodes(search: string, path: string, storage: Storage | null = session()): ArrivalCodes {
  const q = new URLSearchParams(search);
  // `code` is the invitation only on /register (a sign-in provider's callback has a `code` of its own).
  const affiliateCode = q.get('affiliateCode') || (path === '/register' ? q.get('code') : null) || null;
  const referralCode = q.get('referralCode') || null;
  const kept = stored(storage);
  const codes = { affiliateCode: affiliateCode ?? kept.affiliateCode, referralCode: referralCode ?? kept.referralCode };
  if (affiliateCode || referralCode) {
    try {
      storage?.setItem(KEY, JSON.stringify(codes));
    } catch {
      // storage full or refused: the address still carries them
    }
  }
  return codes;
}

/** The referral code was refused: forget it (the invitation stays). */
export function forgetReferralCode(storage: Storage | null = session()): void {
  const kept = stored(storage);
  try {
    if (kept.affiliateCode) storage?.setItem(KEY, JSON.stringify({ ...kept, referralCode: null }));
    else storage?.removeItem(KEY);
  } catch {
    // nothing kept
  }
}
