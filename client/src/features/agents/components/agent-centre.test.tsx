import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../../../i18n/i18n';
import { AgentCentre, type AgentCentreSlots } from './agent-centre';
import { NO_AGENT_FLAGS, type AgentItemFlags, type AgentOfficeItem } from './office-items';

const slots: AgentCentreSlots = {
  deposit: () => <p>deposit-slot</p>,
  withdraw: () => <p>withdraw-slot</p>,
  announcement: () => <p>announcement-slot</p>,
  messages: () => <p>messages-slot</p>,
  customerService: () => <p>cs-slot</p>,
  transferTo: (a) => <p>transfer-{a}</p>,
  unread: 3,
};

async function render(variant: 'page' | 'popup', item: AgentOfficeItem, flags: AgentItemFlags, lang = 'EN') {
  // Texts load on demand (i18n/i18n.ts): the language and the agent office's namespaces first.
  await i18n.changeLanguage(lang);
  await i18n.loadNamespaces(['agent-office', 'agents']);
  return renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <AgentCentre variant={variant} item={item} onItem={() => {}} flags={flags} slots={slots} />
    </I18nextProvider>,
  );
}
const menu = (html: string) => [...html.matchAll(/data-ao-item="([^"]+)"/g)].map((m) => m[1]);

describe('AgentCentre', () => {
  it('renders the gated menu with translated labels, the current item marked and its slot shown', async () => {
    const html = await render('page', 'agentDeposit', { ...NO_AGENT_FLAGS, dailySalary: true });
    expect(menu(html)).toHaveLength(14);
    expect(menu(html)).toContain('agentDailyWages2');
    expect(menu(html)).not.toContain('agentHourSalary');
    expect(html).toContain('Team overview');
    expect(html).toContain('Downline management');
    expect(html).toMatch(/aria-current="page"[^>]*data-ao-item="agentDeposit"/);
    expect(html).toContain('deposit-slot');
    expect(html).toContain('>3<'); // unread badge on platform messages
  });

  it('the popup has its twelve items (all flags on) and no cashier entries', async () => {
    const html = await render('popup', 'agentAnnouncement', { dividend: true, dailySalary: true, hourSalary: true });
    expect(menu(html)).toHaveLength(12);
    expect(menu(html)).not.toContain('agentDeposit');
    expect(html).toContain('announcement-slot');
  });

  it('speaks Tagalog in TY', async () => {
    const html = await render('page', 'agentCustomerService', NO_AGENT_FLAGS, 'TY');
    expect(html).toContain('Buod ng koponan');
    expect(html).toContain('cs-slot');
    await i18n.changeLanguage('EN');
  });
});
