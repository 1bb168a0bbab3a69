import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { ARRIVAL_LINK, arrivalCodes, forgetReferralCode } from './arrival-codes';

/** A Storage of the visit (sessionStorage's calls). */
function memoryStorage(): Storage {
  const m = new Map<string, string>();
  return {
    get length() { return m.size; },
    clear: () => m.clear(),
    getItem: (k: string) => m.get(k) ?? null,
    key: (i: number) => [...m.keys()][i] ?? null,
    removeItem: (k: string) => void m.delete(k),
    setItem: (k: string, v: string) => void m.set(k, String(v)),
  };
}

describe("the link's codes last the visit (a closed register popup lost the agent's invitation)", () => {
  it('kept from the arrival address, read back on any later page', () => {
    const s = memoryStorage();
    expect(arrivalCodes('?affiliateCode=FZ5PDQ3PDQ&referralCode=AB23CD45', '/register', s)).toEqual({ affiliateCode: 'FZ5PDQ3PDQ', referralCode: 'AB23CD45' });
    expect(arrivalCodes('', '/promotions', s)).toEqual({ affiliateCode: 'FZ5PDQ3PDQ', referralCode: 'AB23CD45' });
    // a later link's own codes win
    expect(arrivalCodes('?affiliateCode=NEW123', '/', s)).toEqual({ affiliateCode: 'NEW123', referralCode: 'AB23CD45' });
  });

  it('reads ?code= as the invitation on /register only (a sign-in callback has a code of its own)', () => {
    const s = memoryStorage();
    expect(arrivalCodes('?code=oauth-xyz', '/oauth/callback', s)).toEqual({ affiliateCode: null, referralCode: null });
    expect(arrivalCodes('?code=LUCKY8', '/register', s).affiliateCode).toBe('LUCKY8');
  });

  it('forgets a refused referral code, keeping the invitation', () => {
    const s = memoryStorage();
    arrivalCodes('?affiliateCode=FZ5PDQ3PDQ&referralCode=ZZZZZZZZ', '/register', s);
    forgetReferralCode(s);
    expect(arrivalCodes('', '/', s)).toEqual({ affiliateCode: 'FZ5PDQ3PDQ', referralCode: null });
    const t = memoryStorage();
    arrivalCodes('?referralCode=ZZZZZZZZ', '/register', t);
    forgetReferralCode(t);
    expect(arrivalCodes('', '/', t)).toEqual({ affiliateCode: null, referralCode: null });
  });

  it("main.tsx's test before loading this module passes every address whose codes it keeps", () => {
    for (const search of ['?affiliateCode=FZ5PDQ3PDQ', '?x=1&referralCode=AB23CD45', '?code=LUCKY8', '?lang=TY&affiliateCode=A1']) {
      const codes = arrivalCodes(search, '/register', memoryStorage());
      expect([search, codes.affiliateCode !== null || codes.referralCode !== null, ARRIVAL_LINK.test(search)]).toEqual([search, true, true]);
    }
    expect(ARRIVAL_LINK.test('?lang=TY')).toBe(false);
    // main.tsx writes the same test out (an import would cost every first visit bytes).
    expect(readFileSync(new URL('../../../main.tsx', import.meta.url), 'utf8')).toContain(`if (${String(ARRIVAL_LINK)}.test(window.location.search))`);
  });
});

