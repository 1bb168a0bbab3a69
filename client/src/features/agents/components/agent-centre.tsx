import { Suspense, useEffect, useRef } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { IncomeScreen, PayoutRecordScreen } from '../payouts/screens';
import { AccountDetailsScreen } from './account-details';
import { DownlineManagementScreen } from './downline-management';
import { visibleItems, type AgentCentreVariant, type AgentItemFlags, type AgentOfficeItem } from './office-items';
import { RegisterCentreScreen } from './register-centre';
import { TeamBetsScreen } from './team-bets';
import { TeamOverviewScreen } from './team-overview';
import { UserLossScreen } from './user-loss';
import './agent-centre.css';
import { usePageSubTitle } from '../../../lib/page-title';

/**
 * What other features contribute (the app layer composes them; features do not import each other):
 * the cashier screens, announcements, messages, customer service, and the transfer to a downline
 * opened from downline management.
 */
export type AgentCentreSlots = {
  deposit: () => ReactNode;
  withdraw: () => ReactNode;
  announcement: () => ReactNode;
  messages: () => ReactNode;
  customerService: () => ReactNode;
  transferTo: (account: string) => ReactNode;
  /** Unread platform messages, shown as a badge. */
  unread?: number;
};

type Props = {
  variant: AgentCentreVariant;
  item: AgentOfficeItem;
  onItem: (item: AgentOfficeItem) => void;
  flags: AgentItemFlags;
  slots: AgentCentreSlots;
};

/** The agent centre: left menu and content. The /agentHome page (16 items) and the popup (12) share it. */
export function AgentCentre({ variant, item, onItem, flags, slots }: Props) {
  const { t } = useTranslation('agent-office');
  const items = visibleItems(variant, flags);
  // On a phone the menu is one scrolling row: keep the open item in sight, again when the contract items
  // arrive with the flags and push it along (a direct link to Real-time salary left its tab off the screen).
  const menu = useRef<HTMLElement>(null);
  const itemsKey = items.join(',');
  useEffect(() => {
    menu.current?.querySelector<HTMLElement>(`[data-ao-item="${item}"]`)?.scrollIntoView?.({ block: 'nearest', inline: 'center' });
  }, [item, itemsKey]);
  // The back office page names its open item in the tab (the popup over another page does not).
  usePageSubTitle(variant === 'page' ? t(`item.${item}`) : null);
  return (
    <div className={`ao ao--${variant}`} data-testid={`agent-centre-${variant}`}>
      <nav ref={menu} className="ao-menu" aria-label={t('menu_label')}>
        <ul>
          {items.map((id) => (
            <li key={id}>
              <button
                type="button"
                className="ao-menu__item"
                aria-current={item === id ? 'page' : undefined}
                onClick={() => onItem(id)}
                data-ao-item={id}
                data-testid={`ao-item-${id}`}
              >
                <span>{t(`item.${id}`)}</span>
                {id === 'agentMessages' && (slots.unread ?? 0) > 0 && <span className="mc-menu__badge">{slots.unread! > 99 ? '99+' : slots.unread}</span>}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <div className="ao-content" key={item} data-ao-content={item}>
        {/* An item waiting for its translations (i18n.ts, useSuspense) spins here; the menu stays. */}
        <Suspense fallback={<div className="page-spinner" aria-hidden="true" />}>
          <AgentScreen item={item} slots={slots} />
        </Suspense>
      </div>
    </div>
  );
}

function AgentScreen({ item, slots }: { item: AgentOfficeItem; slots: AgentCentreSlots }) {
  switch (item) {
    case 'agentDeposit':
      return <>{slots.deposit()}</>;
    case 'agentWithdraw':
      return <>{slots.withdraw()}</>;
    case 'agentAnnouncement':
      return <>{slots.announcement()}</>;
    case 'agentTeamOverview':
      return <TeamOverviewScreen />;
    case 'registerCenter':
      return <RegisterCentreScreen />;
    case 'downlineManagmentView':
      return <DownlineManagementScreen transferTo={slots.transferTo} />;
    case 'personalHistoryCopy':
      return <TeamBetsScreen />;
    case 'palStatementsAgentCopy':
      return <UserLossScreen />;
    case 'agentRevenueReport':
      return <IncomeScreen />;
    case 'agentDownlineTransactionDetailsCopy':
      return <AccountDetailsScreen />;
    case 'agentDividendRecordCopy2':
      return <PayoutRecordScreen kind="dividend" />;
    case 'agentDailyWages2':
      return <PayoutRecordScreen kind="dailyWages" />;
    case 'agentHourSalary':
      return <PayoutRecordScreen kind="hourlySalary" />;
    case 'agentRealtimeSalary':
      return <PayoutRecordScreen kind="realtimeSalary" />;
    case 'agentMessages':
      return <>{slots.messages()}</>;
    case 'agentCustomerService':
      return <>{slots.customerService()}</>;
  }
}
