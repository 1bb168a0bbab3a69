import { afterEach, describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { i18n } from '../../../i18n/i18n';
import { clearSession, setSessionToken } from '../../../lib/session';
import { TRANSACTION_PASSWORD_KEY } from '../../../lib/transaction-password';
import { renderStatic, textOf } from '../../../lib/testing/static-render';
import { PointsMallPage } from './points-mall-page';

afterEach(async () => {
  clearSession();
  await i18n.changeLanguage('EN');
});

async function page(lang: 'EN' | 'TY', isSet: boolean) {
  setSessionToken('tok');
  const client = new QueryClient();
  client.setQueryData(['member', 'info', 'tok'], { account: 'p1', nickname: null, isAgent: false, isTrial: false, rgExclusion: null });
  client.setQueryData(['points', 'tok', 'balance'], { balance: 1_500, earned: 1_500, owed: 0 });
  client.setQueryData(['points-config'], { enabled: true, minorPerPoint: 1, minConvert: 100 });
  client.setQueryData(TRANSACTION_PASSWORD_KEY, { isSet });
  return renderStatic(lang, <PointsMallPage />, { client, namespaces: ['points', 'rg', 'register', 'wallet', 'auth'] });
}

describe('the points mall convert form and the transaction password', () => {
  it('not set: says so and links to the security centre item instead of asking for it; the submit waits', async () => {
    for (const lang of ['EN', 'TY'] as const) {
      const html = await page(lang, false);
      expect(html).toContain('data-testid="txpw-not-set"');
      expect(html).toContain('href="/member?tab=securityCenter&amp;open=transactionPassword"');
      expect(html).not.toContain('name="convertPassword"');
      expect(html).toMatch(/<button[^>]*disabled=""[^>]*data-testid="points-convert-submit"/);
      expect(textOf(html)).toContain(lang === 'EN' ? 'You have not set a transaction password yet.' : 'Wala ka pang password sa transaksyon.');
    }
  });
  it('set: asks for it under its one name', async () => {
    for (const lang of ['EN', 'TY'] as const) {
      const html = await page(lang, true);
      expect(html).toContain('name="convertPassword"');
      expect(html).not.toContain('data-testid="txpw-not-set"');
      expect(textOf(html)).toContain(lang === 'EN' ? 'Transaction password' : 'Password sa transaksyon');
    }
  });
});
