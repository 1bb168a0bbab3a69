import { useState } from 'react';
import { createPortal } from 'react-dom';
import { noticeStack } from '../contracts/notice-stack';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import type { EventPayload } from '@portal/contracts/events/events';
import { useAuth } from '../../auth/hooks/use-auth';
import { useMoney } from '../../../lib/use-money';
import { useRealtimeEvent } from '../../../realtime/realtime-context';
import { PAYOUTS_KEY } from './api';
import { StatementModal } from './screens';
import { periodLabel } from './period-label';
import '../contracts/contracts.css';

const KIND_KEY: Record<EventPayload<'contract.payout'>['kind'], string> = {
  dividend: 'agents:offer.kind.dividend', daily_salary: 'agents:offer.kind.dailyWages', hour_salary: 'agents:offer.kind.hourlySalary', realtime_salary: 'agents:offer.kind.realtimeSalary',
};

/**
 * A settled payout to this agent (`contract.payout`), anywhere in the portal: the amount and period,
 * with its statement one click away. The balance itself follows `balance.changed`.
 */
export function PayoutNotice() {
  const { t } = useTranslation('agents');
  const money = useMoney();
  const qc = useQueryClient();
  const { isLogin, isAgent, member } = useAuth();
  const [news, setNews] = useState<EventPayload<'contract.payout'> | null>(null);
  const [statementOf, setStatementOf] = useState<number | null>(null);
  useRealtimeEvent('contract.payout', (env) => {
    void qc.invalidateQueries({ queryKey: PAYOUTS_KEY });
    const p = env.payload;
    if (member && p.payeeId === member.id && p.amount > 0 && (p.status === 'paid' || p.status === 'adjusted')) setNews(p);
  });
  if (!isLogin || !isAgent) return null;
  return (
    <>
      {news &&
        createPortal(
          <div className="ag-notice" role="status" data-testid="payout-notice" data-payout-id={news.payoutId}>
            <p className="ag-notice__text">{t('payouts.notice', { amount: money(news.amount), kind: t(KIND_KEY[news.kind]), period: periodLabel(t, news.periodKey) })}</p>
            <div className="ag-actions">
              <button type="button" className="btn btn--primary btn--sm" onClick={() => { setStatementOf(Number(news.payoutId)); setNews(null); }} data-testid="payout-notice-statement">
                {t('payouts.action.statement')}
              </button>
              <button type="button" className="btn btn--ghost btn--sm" onClick={() => setNews(null)} data-testid="payout-notice-close">
                {t('agents:offer.action.close')}
              </button>
            </div>
          </div>,
          noticeStack(),
        )}
      {statementOf !== null && <StatementModal id={statementOf} canDispute onClose={() => setStatementOf(null)} />}
    </>
  );
}
