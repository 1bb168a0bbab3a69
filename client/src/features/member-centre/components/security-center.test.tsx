import { afterEach, describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { TMemberInfo } from '@portal/contracts/api/auth';
import { i18n } from '../../../i18n/i18n';
import { RgExclusionContext } from '../../../lib/rg-exclusion';
import { clearSession, setSessionToken } from '../../../lib/session';
import { renderStatic, textOf } from '../../../lib/testing/static-render';
import { SecurityCenter } from './security-center';

afterEach(async () => {
  clearSession();
  await i18n.changeLanguage('EN');
});

const info: TMemberInfo = {
  id: 7, account: 'p1', nickname: null, type: 0, isAgent: false, isTrial: false, currencySymbol: '₱', language: 'EN',
  imgUrl: null, mobileNum: '0917***4567', email: null, totpEnabled: false,
};

async function render(lang: 'EN' | 'TY', exclusion: { kind: string; until: string | null } | null) {
  setSessionToken('tok');
  const client = new QueryClient();
  return renderStatic(lang, <RgExclusionContext.Provider value={exclusion}><SecurityCenter info={{ ...info, rgExclusion: exclusion }} /></RgExclusionContext.Provider>, { client, namespaces: ['register', 'auth', 'wallet', 'rg'] });
}

describe('the security centre of an excluded player (contact details and picture are refused: RG_EXCLUDED)', () => {
  it('offers the contact and picture changes to a player in good standing', async () => {
    const html = await render('EN', null);
    expect(html).toContain('data-testid="sec-mobile-edit"');
    expect(html).toContain('data-testid="sec-email-edit"');
    expect(html).toContain('data-testid="profile-picture-change"');
    expect(html).not.toContain('data-testid="sec-excluded"');
  });

  it('keeps the password and authenticator, drops the refused buttons and says why, in EN and TY', async () => {
    for (const lang of ['EN', 'TY'] as const) {
      const html = await render(lang, { kind: 'self', until: '2027-06-05T15:15:00.000Z' });
      expect(html).not.toContain('data-testid="sec-mobile-edit"');
      expect(html).not.toContain('data-testid="sec-email-edit"');
      expect(html).not.toContain('data-testid="profile-picture-change"');
      expect(html).toContain('data-change-password');
      expect(textOf(html)).toContain(lang === 'EN' ? 'can be changed again when your exclusion ends' : 'kapag natapos ang iyong exclusion');
    }
  });
});
