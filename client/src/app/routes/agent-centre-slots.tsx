import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../features/auth/hooks/use-auth';
import { AgentCentre, type AgentCentreSlots } from '../../features/agents/components/agent-centre';
import { AGENT_REPORTS_KEY } from '../../features/agents/api/get-team-overview';
import { DEFAULT_AGENT_ITEM, flagsOf, type AgentItemFlags, type AgentOfficeItem } from '../../features/agents/components/office-items';
import { DepositPanel } from '../../features/deposit/components/deposit-panel';
import { AnnouncementList } from '../../features/home/components/announcement-list';
import { useUnreadCount } from '../../features/messages/api/get-unread-count';
import { MessagesPanel } from '../../features/messages/components/messages-panel';
import { TransferPanel } from '../../features/transfer/components/transfer-panel';
import { WithdrawPanel } from '../../features/withdraw/components/withdraw-panel';
import { useConsolidatedFunds } from '../../lib/agent-funds';
import { useCustomerService } from '../../lib/domain-route';
import { closePopup, usePopup } from '../../lib/popups';
import { useModule } from '../../lib/whitelabel';
import { Modal } from '../../ui/modal';
import { Icon, isIconName } from '../../ui/icons';
import '../../features/member-centre/components/member-centre.css';

/** The merchant's customer-service links as the agent centre's last item. */
function CustomerServiceScreen() {
  const { t } = useTranslation('agent-office');
  const links = useCustomerService();
  return (
    <div className="mc-card" data-testid="ao-customer-service">
      <h1 className="mc-title">{t('item.agentCustomerService')}</h1>
      <p className="cx-muted">{t('cs.lead')}</p>
      {links.length === 0 && <p className="cx-empty">{t('cs.none')}</p>}
      <div className="ao-cs">
        {links.map((cs) => (
          <a key={`${cs.csType}-${cs.url}`} className="btn btn--outline" href={cs.url} target="_blank" rel="noopener noreferrer" data-cs={cs.csType}>
            {isIconName(cs.csType) && <Icon name={cs.csType} size={18} />}
            <span>{cs.title}</span>
          </a>
        ))}
      </div>
    </div>
  );
}

/** The contract flags that gate items: the consolidated call when AGENTPOLICY3 is on (never for trial). */
export function useAgentItemFlags(): AgentItemFlags {
  return useAgentItemFlagsState().flags;
}

/** The flags, and whether they are still being read (the consolidated call has not answered yet). */
export function useAgentItemFlagsState(): { flags: AgentItemFlags; isPending: boolean } {
  const { isTrial, isLogin } = useAuth();
  const hasPolicy = useModule('AGENTPOLICY3');
  const enabled = isLogin && hasPolicy && !isTrial;
  const funds = useConsolidatedFunds(enabled);
  return { flags: flagsOf(funds.data), isPending: enabled && funds.isPending };
}

/** Other features' screens composed into the agent centre (features do not import each other). */
export function useAgentCentreSlots(): AgentCentreSlots {
  const { t } = useTranslation('agent-office');
  const { isTrial, member } = useAuth();
  const unread = useUnreadCount(!isTrial).data?.count ?? 0;
  const qc = useQueryClient();
  return {
    deposit: () => <DepositPanel />,
    withdraw: () => <WithdrawPanel />,
    announcement: () => <AnnouncementList title={t('item.agentAnnouncement')} />,
    messages: () => <MessagesPanel />,
    customerService: () => <CustomerServiceScreen />,
    // A transfer moves the downline's balance (and the team's figures): the downline list reads them again.
    transferTo: (account) => <TransferPanel isAgent initialDownline={account} hasUpline={member?.hasUpline} onSent={() => void qc.invalidateQueries({ queryKey: AGENT_REPORTS_KEY })} />,
    unread,
  };
}

/** The popup agent centre (header user menu "Agent"): twelve items, team overview first shown. */
export function AgentCentrePopup() {
  const { t } = useTranslation('agent-office');
  const popup = usePopup();
  const { isAgent } = useAuth();
  const isOpen = popup?.name === 'agentCentre' && isAgent;
  return (
    <Modal name="agentCentre" open={isOpen} onClose={closePopup} title={t('title')} width={1180} height={640} className="ao-modal">
      {isOpen && <AgentCentrePopupBody />}
    </Modal>
  );
}

function AgentCentrePopupBody() {
  const { t } = useTranslation('agent-office');
  const [item, setItem] = useState<AgentOfficeItem>(DEFAULT_AGENT_ITEM);
  const flags = useAgentItemFlags();
  const slots = useAgentCentreSlots();
  return (
    <div className="ao-popup">
      <div className="ao-popup__bar">
        <Link to={`/agentHome?item=${item}`} className="btn btn--ghost btn--sm" onClick={closePopup} data-testid="ao-open-back-office">
          {t('open_back_office')}
        </Link>
      </div>
      <AgentCentre variant="popup" item={item} onItem={setItem} flags={flags} slots={slots} />
    </div>
  );
}
