import { afterEach, describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { i18n } from '../../../i18n/i18n';
import { QUERY_KEYS } from '../../../lib/query-keys';
import { clearSession, setSessionToken } from '../../../lib/session';
import { RgLimitsOffer } from './limits-offer';

afterEach(() => clearSession());

async function render(where: 'register' | 'deposit', limits: Array<{ kind: string; period: string; amount: number | null }> | null) {
  await i18n.loadNamespaces(['rg', 'common', 'register']);
  setSessionToken('tok');
  const client = new QueryClient();
  client.setQueryData(QUERY_KEYS.whitelabel, { brand: { currencySymbol: '₱', gmtOffsetMinutes: 480 } });
  if (limits) {
    client.setQueryData(['rg', 'tok', 'state'], {
      limits: limits.map((l) => ({ ...l, used: 0, pendingAmount: null, pendingRemove: false, pendingFrom: null, periodStart: '2026-12-04T16:00:00.000Z' })),
      exclusion: null, realityCheckMinutes: null, sessionLimitMinutes: null, sessionStartedAt: null, sessionNet: 0, gmtOffsetMinutes: 480,
    });
  }
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}><RgLimitsOffer where={where} onDone={() => undefined} /></I18nextProvider>
    </QueryClientProvider>,
  );
}

describe('the limits offer', () => {
  it('before the first deposit, shows only to a player with no limit yet (one set when registering was offered it again)', async () => {
    expect(await render('deposit', [])).toContain('data-testid="rg-offer-deposit"');
    expect(await render('deposit', [{ kind: 'deposit', period: 'week', amount: 5000_00 }])).toBe('');
    // not before the state is known (it would show, then vanish)
    expect(await render('deposit', null)).toBe('');
    // after registering it shows what is set
    const reg = await render('register', [{ kind: 'deposit', period: 'week', amount: 5000_00 }]);
    expect(reg).toContain('data-testid="rg-offer-register"');
    expect(reg).toContain('data-testid="rg-offer-saved"');
  });
});
