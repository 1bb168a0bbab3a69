import { useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { useMoney } from '../../../lib/use-money';
import { useRealtimeEvent } from '../../../realtime/realtime-context';
import { WITHDRAWALS_KEY } from '../api/get-withdrawals';
import '../../../ui/cashier.css';
import './withdraw.css';

/**
 * A small global notice when a withdrawal is paid while the player is elsewhere on the site: it
 * links to the withdraw item, where the confirmation prompt is. `isOnWithdraw` hides it there.
 */
export function WithdrawalNotice({ isOnWithdraw, onOpen }: { isOnWithdraw: boolean; onOpen: () => void }) {
  const { t } = useTranslation('wallet');
  const money = useMoney();
  const qc = useQueryClient();
  const [paid, setPaid] = useState<{ id: string; amount: number } | null>(null);
  useRealtimeEvent('withdrawal.updated', (env) => {
    void qc.invalidateQueries({ queryKey: WITHDRAWALS_KEY });
    const p = env.payload;
    if (p.status === 'paid') setPaid({ id: p.withdrawalId, amount: p.amount });
    else if (paid && p.withdrawalId === paid.id) setPaid(null);
  });
  if (!paid || isOnWithdraw) return null;
  return createPortal(
    <div className="wd-notice" role="status" data-testid="withdrawal-paid-notice">
      <p className="wd-notice__text">{t('notice_paid', { amount: money(paid.amount) })}</p>
      <div className="mc-actions">
        <button
          type="button"
          className="btn btn--primary btn--sm"
          onClick={() => {
            setPaid(null);
            onOpen();
          }}
          data-testid="withdrawal-paid-notice-open"
        >
          {t('notice_confirm')}
        </button>
        <button type="button" className="btn btn--ghost btn--sm" onClick={() => setPaid(null)} data-testid="withdrawal-paid-notice-close">
          {t('later')}
        </button>
      </div>
    </div>,
    document.body,
  );
}
