import { afterEach, describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { i18n } from '../../../i18n/i18n';
import { QUERY_KEYS } from '../../../lib/query-keys';
import { clearSession, setSessionToken } from '../../../lib/session';
import { RgPanel } from './rg-panel';

afterEach(async () => {
  clearSession();
  await i18n.changeLanguage('EN');
});

async function render(lang: 'EN' | 'TY') {
  await i18n.changeLanguage(lang);
  await i18n.loadNamespaces(['rg', 'common', 'register']);
  setSessionToken('tok');
  const client = new QueryClient();
  client.setQueryData(QUERY_KEYS.whitelabel, { brand: { currencySymbol: '₱', gmtOffsetMinutes: 480 } });
  client.setQueryData(['rg', 'tok', 'state'], {
    limits: [{ kind: 'deposit', period: 'day', amount: 1000_00, used: 600_00, pendingAmount: 3000_00, pendingRemove: false, pendingFrom: '2099-01-01T00:00:00.000Z', periodStart: '2026-12-04T16:00:00.000Z' }],
    exclusion: null, realityCheckMinutes: null, sessionLimitMinutes: null, sessionStartedAt: null, sessionNet: 0, gmtOffsetMinutes: 480,
  });
  client.setQueryData(['rg', 'tok', 'events'], { list: [], total: 0 });
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}><RgPanel /></I18nextProvider>
    </QueryClientProvider>,
  );
}

describe('the RG limits table', () => {
  it("labels every cell (phones show the rows as cards: each value under its column's name), EN and TY", async () => {
    const en = await render('EN');
    for (const label of ['Type', 'Period', 'Limit', 'Used this period', 'Requested increase']) expect(en).toContain(`data-label="${label}"`);
    expect(en).toContain('₱1,000.00');
    expect(en).not.toContain('data-testid="rg-confirm"');
    const ty = await render('TY');
    expect(ty).toContain(`data-label="${i18n.getFixedT('TY', 'rg')('rg_used')}"`);
    expect(ty.match(/<td data-label="/g)).toHaveLength(5);
  });
});
