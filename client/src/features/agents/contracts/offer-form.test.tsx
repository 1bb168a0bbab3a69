import { beforeAll, describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { i18n } from '../../../i18n/i18n';
import { CONTRACTS_KEY, type TAgentContract } from './api';
import { HELD_FILTER, OfferContractForm, draftFor, offerLimits, offerableKinds, termsOf } from './offer-form';

function held(kinds: TAgentContract['kind'][], terms?: TAgentContract['terms']): QueryClient {
  const qc = new QueryClient();
  qc.setQueryData([...CONTRACTS_KEY, 'list', HELD_FILTER], { list: kinds.map((kind, i) => ({ id: i + 1, kind, ...(terms ? { terms } : {}) })), pageNo: 1, pageSize: 100, total: kinds.length });
  return qc;
}
/** The agent's own dividend: 40 %, weekly, 3 active members and 1,000.00 of bets. */
const OWN_DIVIDEND = { kind: 'dividend', rate: 4000, activeMembers: 3, betAmount: 100_000, profitLossPeriod: 'weekly' } as const;
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

  it("bounds the offer by the agent's own contract: rate up to its own, its period, its conditions as the least", () => {
    expect(offerLimits('dividend', OWN_DIVIDEND)).toEqual({ min: 1, max: 4000, period: 'weekly' });
    const draft = draftFor(OWN_DIVIDEND);
    expect(draft).toEqual({ rate: '', activeMembers: '3', betAmount: '1000.00', period: 'weekly' });
    // Above its own rate: refused in the form (the server answers CONTRACT_RATE_ABOVE_UPLINE); at it: the terms, on its period.
    expect(termsOf('dividend', { ...draft, rate: '50' }, 2, OWN_DIVIDEND)).toEqual({ ok: false, error: 'contracts.form.rateRange' });
    expect(termsOf('dividend', { ...draft, rate: '40', period: 'daily' }, 2, OWN_DIVIDEND)).toEqual({
      ok: true, terms: { kind: 'dividend', rate: 4000, activeMembers: 3, betAmount: 100_000, profitLossPeriod: 'weekly' },
    });
    // Without a contract of its own (the form's fallback): the kind's bounds.
    expect(offerLimits('dividend', undefined).max).toBe(10_000);
    for (const lang of ['EN', 'TY']) {
      const html = render(held(['dividend'], OWN_DIVIDEND), lang);
      const fixed = i18n.getFixedT(lang)('agents:contracts.periodName.weekly');
      expect(html).toContain(`<span data-testid="offer-period">${fixed}</span>`);
      // the range names its own percent signs once ('Rate (0.01% – 40%)', not 'Rate % (...)')
      expect(html).toMatch(/\((0\.01%) – 40%\)/);
      expect(html).not.toContain('% (');
      expect(html).not.toContain('100%)');
    }
  });
});
