import { beforeAll, describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { i18n } from '../../../i18n/i18n';
import { CONTRACTS_KEY, type TAgentContract } from './api';
import { HELD_FILTER, OfferContractForm, offerableKinds } from './offer-form';

function held(kinds: TAgentContract['kind'][]): QueryClient {
  const qc = new QueryClient();
  qc.setQueryData([...CONTRACTS_KEY, 'list', HELD_FILTER], { list: kinds.map((kind, i) => ({ id: i + 1, kind })), pageNo: 1, pageSize: 100, total: kinds.length });
  return qc;
}
function render(qc: QueryClient, lang = 'EN') {
  void i18n.changeLanguage(lang);
  const html = renderToStaticMarkup(
    <QueryClientProvider client={qc}>
      <I18nextProvider i18n={i18n}><OfferContractForm downlineId={2} /></I18nextProvider>
    </QueryClientProvider>,
  );
  void i18n.changeLanguage('EN');
  return html;
}

beforeAll(async () => {
  for (const lang of ['TY', 'EN']) {
    await i18n.changeLanguage(lang);
    await i18n.loadNamespaces(['agents', 'common']);
  }
});

describe('offer contract form', () => {
  it('offers only the kinds the agent holds', () => {
    expect(offerableKinds([{ kind: 'hourlySalary' }, { kind: 'dividend' }, { kind: 'dividend' }])).toEqual(['dividend', 'hourlySalary']);
    const html = render(held(['dividend']));
    const options = [...html.matchAll(/<option value="(\w+)"/g)].map((m) => m[1]).filter((v) => ['dividend', 'dailyWages', 'hourlySalary', 'realtimeSalary'].includes(v!));
    expect(options).toEqual(['dividend']);
    expect(html).toContain('data-testid="offer-period"');
  });

  it.each(['EN', 'TY'])('says so instead of a form when the agent holds none (%s)', (lang) => {
    const html = render(held([]), lang);
    expect(html).toContain('data-testid="offer-none"');
    expect(html).not.toContain('offer-submit');
    expect(html).toContain(i18n.getFixedT(lang)('agents:contracts.form.noneHeld'));
  });
});
