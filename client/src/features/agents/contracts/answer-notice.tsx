import { useState } from 'react';
import { createPortal } from 'react-dom';
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

/**
 * The upline's side anywhere in the portal: when a downline answers an offer this agent made (or a
 * contract it gave ends), a small notice says so at once; the contract lists refetch on the same event.
 */
export function ContractAnswerNotice() {
  const { t } = useTranslation('agents');
  const { isLogin, isAgent, member } = useAuth();
  const [news, setNews] = useState<ContractEventPayload | null>(null);
  useRealtimeEvent('contract.updated', (env) => {
    const p = env.payload;
    if (!member || p.uplineId !== member.id) return;
    if (SHOWN[outcomeOf(p.status)]) setNews(p);
  });
  if (!isLogin || !isAgent || !news) return null;
  const key = SHOWN[outcomeOf(news.status)]!;
  return createPortal(
    <div className="ag-notice" role="status" data-testid="contract-answer-notice" data-contract-id={news.contractId} data-status={news.status}>
      <p className="ag-notice__text">
        {t(AWAITING_STATE_MESSAGE_KEYS[key])} — {t(EVENT_KIND_KEY[news.kind])} {percentOf(news.rateBps)}
      </p>
      <button type="button" className="btn btn--ghost btn--sm" onClick={() => setNews(null)} data-testid="contract-answer-notice-close">
        {t('agents:offer.action.close')}
      </button>
    </div>,
    document.body,
  );
}
