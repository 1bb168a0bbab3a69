import { useAuth } from '../../features/auth/hooks/use-auth';
import { BetsPanel } from '../../features/bets/components/bets-panel';
import { DepositPanel, RecentDeposits } from '../../features/deposit/components/deposit-panel';
import { MemberCentrePage, type MemberCentreSlots } from '../../features/member-centre/components/member-centre-page';
import { useUnreadCount } from '../../features/messages/api/get-unread-count';
import { MessagesPanel } from '../../features/messages/components/messages-panel';
import { useMissionSummary } from '../../features/missions/api/get-mission-summary';
import { MissionsPanel } from '../../features/missions/components/missions-panel';
import { useMissionEvents } from '../../features/missions/components/use-mission-events';
import { EnvelopeHistoryPanel } from '../../features/red-envelopes/components/envelope-history';
import { RgPanel } from '../../features/rg/components/rg-panel';
import { ReferralPanel } from '../../features/referral/components/referral-panel';
import { ProfitPanel } from '../../features/profit/components/profit-panel';
import { usePointBalance } from '../../features/points/api/points';
import { useRewards } from '../../features/promotions/api/promotions';
import { BonusDetails } from '../../features/promotions/components/bonus-details';
import { RewardCentre } from '../../features/promotions/components/reward-centre';
import { usePromotionEvents } from '../../features/promotions/components/use-promotion-events';
import { LockedBonusNote } from '../../features/promotions/components/locked-bonus-note';
import { RgLimitsOffer } from '../../features/rg/components/limits-offer';
import { RecordsPanel } from '../../features/records/components/records-panel';
import { TransferList, TransferPanel } from '../../features/transfer/components/transfer-panel';
import { WalletsPanel } from '../../features/wallet/components/wallets-panel';
import { WithdrawPanel } from '../../features/withdraw/components/withdraw-panel';
import { useTranslation } from 'react-i18next';
import { useRgExclusion, type RgExclusionState } from '../../lib/rg-exclusion';
import { useModule } from '../../lib/whitelabel';
import { ExclusionNotice, type ClosedPlace } from '../../ui/exclusion-notice';

/** /member: the member centre with the cashier items composed in (features do not import each other). */
export function MemberRoute() {
  const { isAgent, isTrial, member } = useAuth();
  const hasAccountRecord = useModule('TRANSREC3');
  const hasBettingRecord = useModule('TRANSBETREPMEM3');
  const unread = useUnreadCount(!isTrial).data?.count ?? 0;
  // Badges: rewards waiting for a claim, bonuses under wagering (kept live by the promotion events).
  const rewards = useRewards(!isTrial).data;
  usePromotionEvents();
  // Badge: missions completed and not claimed yet (kept live by mission.progress).
  const missions = useMissionSummary(!isTrial).data;
  useMissionEvents();
  // An excluded player's deposits and transfers are refused (RG_EXCLUDED); withdrawing stays open.
  const exclusion = useRgExclusion();
  const slots: MemberCentreSlots = {
    transferFund: { render: () => <Wallets /> },
    ...cashierSlots(exclusion, isAgent, member?.hasUpline),
    withdraw: { render: () => <WithdrawPanel note={<LockedBonusNote />} /> },
    transactionHistory: { render: () => <RecordsPanel />, hidden: !hasAccountRecord },
    personalHistoryCopy: { render: () => <BetsPanel />, hidden: !hasBettingRecord },
    messageV2: { render: () => <MessagesPanel />, badge: unread },
    responsibleGaming: { render: () => <RgPanel /> },
    referral: { render: () => <ReferralPanel /> },
    personalProfit: { render: () => <ProfitPanel /> },
    rewardCenter: { render: () => <RewardCentre />, badge: rewards?.claimable ?? 0 },
    bonusDetails: { render: () => <BonusDetails />, badge: rewards?.processing ?? 0 },
    redEnvelopes: { render: () => <EnvelopeHistoryPanel /> },
    missionLeaderboard: { render: () => <MissionsPanel />, badge: missions?.claimable ?? 0 },
  };
  return <MemberCentrePage slots={slots} />;
}

/** transferFund: the wallets (main, bonus under wagering, points) with the seamless-wallet explanation. */
function Wallets() {
  const rewards = useRewards().data;
  const points = usePointBalance().data;
  return <WalletsPanel bonusBalance={rewards?.bonusBalance} points={points?.balance} />;
}

/**
 * Deposit and transfer: for a player under an exclusion (whose deposits and transfers the server refuses
 * with RG_EXCLUDED) the item says it is closed and until when, with no form; withdraw stays as it is.
 */
export function cashierSlots(exclusion: RgExclusionState, isAgent: boolean, hasUpline?: boolean): Pick<MemberCentreSlots, 'depositv2' | 'transferUpline'> {
  return {
    depositv2: {
      render: () => (exclusion ? <ClosedItem exclusion={exclusion} place="deposit" /> : <DepositPanel firstDepositOffer={(done) => <RgLimitsOffer where="deposit" onDone={done} />} />),
    },
    transferUpline: { render: () => (exclusion ? <ClosedItem exclusion={exclusion} place="transfer" isAgent={isAgent} /> : <TransferPanel isAgent={isAgent} hasUpline={hasUpline} />) },
  };
}

/**
 * A cashier item closed by an exclusion: its title and the notice (what is closed, until when, the way to
 * withdraw) instead of the form; the player's own records below stay (reads pass).
 */
export function ClosedItem({ exclusion, place, isAgent = false }: { exclusion: NonNullable<RgExclusionState>; place: Extract<ClosedPlace, 'deposit' | 'transfer'>; isAgent?: boolean }) {
  const { t } = useTranslation('wallet');
  const title = place === 'deposit' ? t('deposit_title') : isAgent ? t('transfer_title_agent') : t('transfer_title');
  return (
    <div className="mc-stack" data-testid={`${place}-closed`}>
      <div className="mc-card">
        <h1 className="mc-title">{title}</h1>
        <ExclusionNotice exclusion={exclusion} place={place} />
      </div>
      {place === 'deposit' ? <RecentDeposits /> : <TransferList />}
    </div>
  );
}
