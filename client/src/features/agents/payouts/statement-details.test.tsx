import { beforeAll, describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { TPayout, TPayoutStatement } from '@portal/contracts/api/agent-payouts';
import { i18n } from '../../../i18n/i18n';
import { StatementDetails } from './screens';

const payout: TPayout = {
  id: 2, kind: 'dividend', contractId: 4, periodType: 'daily', periodKey: '2026-12-08',
  periodStart: '2026-12-07T16:00:00.000Z', periodEnd: '2026-12-08T16:00:00.000Z',
  payeeId: 7, payeeAccount: 'qa1sub', payerId: 5, payerAccount: 'qa1top',
  amount: 2687, carryIn: 0, carryOver: 0, adjustedAmount: 0, payerAdjustedAmount: 0,
  funded: false, status: 'unfunded', settledAt: '2026-12-08T16:02:00.000Z', disputeStatus: null,
};
const statement: TPayoutStatement = {
  contractId: 4, kind: 'dividend', period: { type: 'daily', key: '2026-12-08', start: payout.periodStart, end: payout.periodEnd },
  payerId: 5, payeeId: 7, rate: 2500, effectiveRate: 2500, rateDenominator: 10000,
  team: { validBets: 20000, profitLoss: -10750, netLoss: 10750, activeMembers: 3 },
  conditions: { activeMembers: { required: 0, actual: 3 }, betAmount: { required: 0, actual: 20000 }, isMet: true },
  base: 10750, carryOverEnabled: false, carryIn: 0, adjustedBase: 10750, carryOut: 0, amount: 2687,
  lines: [], downlinesTook: 0, kept: 2687,
  arithmetic: { adjustedBase: '10750', amount: '10750 * 2500 / 10000', kept: '2687 - 0' },
  steps: [{ code: 'noConditions', params: {} }, { code: 'amount', params: { base: 10750, rate: 2500, amount: 2687 } }],
  anomaly: null, idempotencyKey: 'agent-payout:4:2026-12-08',
};

function render(p: TPayout, lang: string) {
  void i18n.changeLanguage(lang);
  const html = renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <I18nextProvider i18n={i18n}>
        <StatementDetails payout={p} statement={statement} canDispute />
      </I18nextProvider>
    </QueryClientProvider>,
  );
  void i18n.changeLanguage('EN');
  const status = /data-testid="statement-status">(.*?)<\/dd>/.exec(html)?.[1] ?? '';
  return status.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
}

beforeAll(async () => {
  for (const lang of ['TY', 'EN']) {
    await i18n.changeLanguage(lang);
    await i18n.loadNamespaces(['agents']);
  }
});

describe('a payout statement says whether the money moved', () => {
  // An unfunded payout's statement read "Amount ₱26.87 ... Kept ₱26.87" with no word that nothing was paid.
  it('an unfunded payout: owed, not paid (EN and TY)', () => {
    expect(render(payout, 'EN')).toMatch(/^Not funded 26\.87 is owed but was not paid/);
    expect(render(payout, 'TY')).toMatch(/^Walang pondo May utang na .*26\.87 pero hindi ito naibayad/);
  });

  it('a paid payout says Paid and nothing more', () => {
    expect(render({ ...payout, funded: true, status: 'paid' }, 'EN')).toBe('Paid');
  });
});
