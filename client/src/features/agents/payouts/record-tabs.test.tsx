import { beforeAll, describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { i18n } from '../../../i18n/i18n';
import { AgentCentre, type AgentCentreSlots } from '../components/agent-centre';
import type { AgentOfficeItem } from '../components/office-items';
import { PayoutRecordScreen, type RecordView } from './screens';

const none = () => null;
const slots: AgentCentreSlots = { deposit: none, withdraw: none, announcement: none, messages: none, customerService: none, transferTo: none };
const ALL = { dividend: true, dailySalary: true, hourSalary: true };
const CONTRACT_ITEMS: AgentOfficeItem[] = ['agentDividendRecordCopy2', 'agentDailyWages2', 'agentHourSalary', 'agentRealtimeSalary'];

function wrap(node: React.ReactNode, lang: string) {
  void i18n.changeLanguage(lang);
  const html = renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <I18nextProvider i18n={i18n}>{node}</I18nextProvider>
    </QueryClientProvider>,
  );
  void i18n.changeLanguage('EN');
  return html;
}
const tab = (html: string) => /data-testid="payouts-my-contracts"[^>]*>([^<]*)</.exec(html)?.[1];

// Texts load on demand (i18n/i18n.ts): both languages' agent namespaces first.
beforeAll(async () => {
  for (const lang of ['TY', 'EN']) {
    await i18n.changeLanguage(lang);
    await i18n.loadNamespaces(['agents', 'agent-office']);
  }
});

describe('My contracts in the agent centre', () => {
  it.each([['page', 'EN', 'My contracts'], ['popup', 'EN', 'My contracts'], ['page', 'TY', 'Aking mga kontrata'], ['popup', 'TY', 'Aking mga kontrata']] as const)(
    'is a tab of every contract item of the %s menu (%s)', (variant, lang, label) => {
      for (const item of CONTRACT_ITEMS) {
        const html = wrap(<AgentCentre variant={variant} item={item} onItem={() => {}} flags={ALL} slots={slots} />, lang);
        expect([item, tab(html)]).toEqual([item, label]);
      }
    },
  );

  it('the tab shows the contracts of that kind', () => {
    const html = wrap(<PayoutRecordScreen kind="hourlySalary" initialView={'contracts' satisfies RecordView} />, 'EN');
    expect(html).toContain('data-testid="my-contracts" data-kind="hourlySalary"');
    expect(html).toMatch(/aria-selected="true"[^>]*data-testid="payouts-my-contracts"/);
    expect(html).not.toContain('payouts-from');
  });
});
