import { afterEach, describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { i18n } from '../../../i18n/i18n';
import { RgExclusionContext } from '../../../lib/rg-exclusion';
import { clearSession, setSessionToken } from '../../../lib/session';
import { renderStatic, textOf } from '../../../lib/testing/static-render';
import { PointsMallPage } from './points-mall-page';

afterEach(async () => {
  clearSession();
  await i18n.changeLanguage('EN');
});

async function page(lang: 'EN' | 'TY', exclusion: { kind: string; until: string | null } | null, opts: { enabled?: boolean; guest?: boolean } = {}) {
  if (opts.guest) clearSession();
  else setSessionToken('tok');
  const client = new QueryClient();
  client.setQueryData(['member', 'info', 'tok'], { account: 'p1', nickname: null, isAgent: false, isTrial: false, rgExclusion: exclusion });
  client.setQueryData(['points', 'tok', 'balance'], { balance: 1_500, earned: 1_500, owed: 0 });
  client.setQueryData(['points-config'], { enabled: opts.enabled ?? true, minorPerPoint: 1, minConvert: 100 });
  client.setQueryData(['points', null, 'rewards', lang], { list: [{ id: '1', title: 'Cash 10.00', remark: '', pointsRequired: 1_000, amount: 1_000, quantity: 5, status: 'active' }] });
  client.setQueryData(['points', 'tok', 'rewards', lang], { list: [{ id: '1', title: 'Cash 10.00', remark: '', pointsRequired: 1_000, amount: 1_000, quantity: 5, status: 'active' }] });
  return renderStatic(lang, <RgExclusionContext.Provider value={exclusion}><PointsMallPage /></RgExclusionContext.Provider>, { client, namespaces: ['points', 'rg', 'register', 'wallet', 'auth'] });
}

describe('the points mall of an excluded player (redeem and convert are refused: RG_EXCLUDED)', () => {
  it('shows the balance and the catalogue, says converting and redeeming are closed, and has no convert form or redeem button', async () => {
    const open = await page('EN', null);
    expect(open).toContain('data-testid="points-convert"');
    expect(open).toContain('data-testid="points-redeem-1"');
    for (const lang of ['EN', 'TY'] as const) {
      const closed = await page(lang, { kind: 'self', until: '2027-06-05T15:15:00.000Z' });
      expect(closed).toContain('data-testid="points-balance"');
      expect(closed).toContain('data-testid="points-reward-1"');
      expect(closed).not.toContain('data-testid="points-convert"');
      expect(closed).not.toContain('data-testid="points-redeem-1"');
      expect(textOf(closed)).toContain(lang === 'EN' ? 'Redeeming and converting points are closed for your account.' : 'Sarado ang pag-redeem at pag-convert ng puntos');
    }
  });
});

describe('the points mall the merchant has switched off (redeem and convert answer MODULE_DISABLED)', () => {
  it('says it is closed and that the points are kept, with no convert form or redeem button (they filled in and then failed)', async () => {
    for (const lang of ['EN', 'TY'] as const) {
      const closed = await page(lang, null, { enabled: false });
      expect(closed).toContain('data-testid="points-balance"');
      expect(closed).toContain('data-testid="points-reward-1"');
      expect(closed).toContain('data-testid="points-closed"');
      expect(closed).not.toContain('data-testid="points-convert"');
      expect(closed).not.toContain('data-testid="points-redeem-1"');
      expect(textOf(closed)).toContain(lang === 'EN' ? 'The points mall is closed for now' : 'Sarado muna ang tindahan ng puntos');
      // a guest reads it by the catalogue
      const guest = await page(lang, null, { enabled: false, guest: true });
      expect(guest).toContain('data-testid="points-closed-catalogue"');
      expect(guest).not.toContain('data-testid="points-redeem-1"');
    }
  });
});
