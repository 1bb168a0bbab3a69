import { useState } from 'react';
import { createPortal } from 'react-dom';
import { noticeStack } from './notice-stack';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../auth/hooks/use-auth';
import { useRealtimeEvent } from '../../../realtime/realtime-context';
import { AWAITING_STATE_MESSAGE_KEYS, outcomeOf, type ContractEventPayload } from '../machines/contract-offer.machine';
import { percentOf } from './api';
import '../../../ui/cashier.css';
import './contracts.css';

const SHOWN: Record<string, keyof typeof AWAITING_STATE_MESSAGE_KEYS> = { accepted: 'accepted', rejected: 'rejected', ended: 'ended' };
const EVENT_KIND_KEY: Record<ContractEventPayload['kind'], string> = {
  dividend: 'agents:offer.kind.dividend', daily_salary: 'agents:offer.kind.dailyWages', hour_salary: 'agents:offer.kind.hourlySalary', realtime_salary: 'agents:offer.kind.realtimeSalary',
};

/** Which notice, if any, a contract event gives this member: as the upline or as the downline. */
export function noticeOf(p: ContractEventPayload, memberId: number): { side: 'upline' | 'downline'; key: keyof typeof AWAITING_STATE_MESSAGE_KEYS } | null {
  const outcome = SHOWN[outcomeOf(p.status)];
  if (!outcome) return null;
  // What the member did itself needs no notice (the upline ending a contract it gave, the downline its own).
  if (p.uplineId === memberId) return p.endReason === 'terminatedByUpline' ? null : { side: 'upline', key: outcome };
  if (p.downlineId === memberId) return outcome === 'ended' && p.endReason !== 'terminatedByDownline' ? { side: 'downline', key: outcome } : null;
  return null;
}

/**
 * Anywhere in the portal, a small notice at once: for the upline, when a downline answers an offer this
 * agent made (or a contract it gave ends); for the downline, when a contract it holds is ended by the
 * upline, an operator or a change above it (it used to vanish from its menu without a word). The
 * contract lists refetch on the same event.
 */
export function ContractAnswerNotice() {
  const { t } = useTranslation('agents');
  const { isLogin, isAgent, member } = useAuth();
  const [news, setNews] = useState<{ p: ContractEventPayload; notice: NonNullable<ReturnType<typeof noticeOf>> } | null>(null);
  useRealtimeEvent('contract.updated', (env) => {
    const p = env.payload;
    const notice = member ? noticeOf(p, member.id) : null;
    if (notice) setNews({ p, notice });
  });
  if (!isLogin || !isAgent || !news) return null;
  const { p, notice } = news;
  return createPortal(
    <div className="ag-notice" role="status" data-testid="contract-answer-notice" data-contract-id={p.contractId} data-status={p.status} data-side={notice.side}>
      <p className="ag-notice__text">
        {t(notice.side === 'downline' ? 'agents:awaiting.state.receivedEnded' : AWAITING_STATE_MESSAGE_KEYS[notice.key])} — {t(EVENT_KIND_KEY[p.kind])} {percentOf(p.rateBps)}
        {p.endReason && <> · {t(`agents:contracts.endReason.${p.endReason}`)}</>}
      </p>
      <button type="button" className="btn btn--ghost btn--sm" onClick={() => setNews(null)} data-testid="contract-answer-notice-close">
        {t('agents:offer.action.close')}
      </button>
    </div>,
    noticeStack(),
  );
}
