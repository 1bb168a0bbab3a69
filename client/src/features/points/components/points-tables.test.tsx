import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { i18n } from '../../../i18n/i18n';
import { QUERY_KEYS } from '../../../lib/query-keys';
import { clearSession, setSessionToken } from '../../../lib/session';
import { Details, RedeemHistory } from './points-mall-page';

afterEach(async () => {
  clearSession();
  await i18n.changeLanguage('EN');
});

async function render(lang: 'EN' | 'TY', node: React.ReactNode) {
  await i18n.changeLanguage(lang);
  await i18n.loadNamespaces(['points', 'common', 'register', 'wallet']);
  setSessionToken('tok');
  const client = new QueryClient();
  client.setQueryData(QUERY_KEYS.whitelabel, { brand: { currencySymbol: '₱', gmtOffsetMinutes: 480 } });
  client.setQueryData(['points', 'tok', 'redeems', lang, 'all', 1], {
    list: [{ id: '4', title: lang === 'TY' ? 'Cash na 2.00' : 'Cash 2.00', amount: 200, quantity: 1, points: 10, status: 'approved', reason: null, createdAt: '2026-12-05T13:45:00.000Z' }], total: 1,
  });
  client.setQueryData(['points', 'tok', 'history', 1], { list: [{ id: '9', kind: 'earn', delta: 120, owedDelta: 0, balanceAfter: 120, createdAt: '2026-12-05T13:44:00.000Z' }], total: 1 });
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>{node}</I18nextProvider>
    </QueryClientProvider>,
  );
}

describe('the points tables on a phone', () => {
  it('label every cell with its column (a row becomes a card of label / value lines), EN and TY', async () => {
    const t = i18n.getFixedT('TY', 'points');
    const ty = await render('TY', <RedeemHistory />);
    expect(ty.match(/<td data-label="/g)).toHaveLength(5);
    for (const k of ['col_time', 'col_reward', 'quantity', 'col_points', 'col_status']) expect(ty).toContain(`data-label="${t(k)}"`);
    const en = await render('EN', <Details />);
    expect(en.match(/<td data-label="/g)).toHaveLength(4);
    expect(en).toContain('data-label="Time"');
  });

  it("the page's grid cannot grow past the screen, and the phone layout reads the labels", () => {
    const css = readFileSync(new URL('./points.css', import.meta.url), 'utf8');
    expect(css).toMatch(/\.pts-page \{[^}]*grid-template-columns: minmax\(0, 1fr\)/);
    expect(css).toMatch(/@media \(max-width: 640px\)[\s\S]*\.pts-table td::before \{ content: attr\(data-label\)/);
  });
});
