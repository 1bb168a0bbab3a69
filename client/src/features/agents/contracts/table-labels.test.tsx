import { beforeAll, describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { TContractTerms } from '@portal/contracts/domain/agent-contracts';
import { i18n } from '../../../i18n/i18n';
import { ContractTable } from './contract-list';
import { WhatIfPreview } from './what-if';
import type { TAgentContract } from './api';

function wrap(node: React.ReactNode, lang: string, qc = new QueryClient()) {
  void i18n.changeLanguage(lang);
  const html = renderToStaticMarkup(
    <QueryClientProvider client={qc}>
      <I18nextProvider i18n={i18n}>{node}</I18nextProvider>
    </QueryClientProvider>,
  );
  void i18n.changeLanguage('EN');
  return html;
}

/** Phones hide the table header (cashier.css): every cell that shows a value must name its column. */
function unlabelledValueCells(html: string): string[] {
  const cells = [...html.matchAll(/<td([^>]*)>(.*?)<\/td>/g)];
  return cells.filter(([, attrs, body]) => !/data-label="[^"]+"/.test(attrs!) && body!.length > 0 && !/^<(button|span class="ag-actions)/.test(body!) && !/<strong>/.test(body!)).map(([c]) => c);
}

const terms: TContractTerms = { kind: 'dailyWages', rate: 150, activeMembers: 0, betAmount: 0, validBetPeriod: 'daily' };
const contract: TAgentContract = {
  id: 7, uplineId: 1, downlineId: 2, terms, status: 'active', offeredAt: '2026-12-01T10:00:00.000Z', answeredAt: null, endedAt: null, endReason: null,
  kind: 'dailyWages', uplineAccount: 'agent01', downlineAccount: 'walkag', endedBy: null,
};

beforeAll(async () => {
  for (const lang of ['TY', 'EN']) {
    await i18n.changeLanguage(lang);
    await i18n.loadNamespaces(['agents', 'agent-office', 'common']);
  }
});

describe('agent contract tables on a phone', () => {
  it.each(['EN', 'TY'])('every contract cell names its column (%s)', (lang) => {
    for (const side of ['given', 'received'] as const) {
      const html = wrap(<ContractTable list={[contract]} side={side} testId="t" />, lang);
      expect(html).toContain('<td data-label=');
      expect(unlabelledValueCells(html)).toEqual([]);
    }
  });

  it.each(['EN', 'TY'])('every what-if cell names its column (%s)', (lang) => {
    const qc = new QueryClient();
    qc.setQueryData(['agents', 'simulate', 2, terms, 6], {
      kind: 'dailyWages', periodType: 'daily',
      periods: [{ periodKey: 'D2026-12-04', periodStart: '2026-12-03T16:00:00.000Z', periodEnd: '2026-12-04T16:00:00.000Z', validBets: 1000, profitLoss: 0, netLoss: 0, activeMembers: 1, base: 1000, effectiveRate: 150, conditionsMet: true, amount: 15 }],
      totals: { base: 1000, amount: 15 },
    });
    const html = wrap(<WhatIfPreview downlineId={2} terms={terms} />, lang, qc);
    expect(html).toContain('offer-what-if-total');
    expect(html).toContain('>2026-12-04</td>');
    expect(html).not.toContain('D2026');
    expect(unlabelledValueCells(html)).toEqual([]);
  });
});
