import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/field-message';
import { useDateTime, useMoney } from '../../../lib/use-money';
import { FormMessage } from '../../../ui/form-field';
import { useRewards } from '../api/promotions';
import { PromotionStatus } from './promotion-status';
import { usePromotionEvents } from './use-promotion-events';
import './promotions.css';

/**
 * Member centre `bonusDetails`: the bonus balance (apart from the withdrawable balance) and each bonus's
 * wagering, moving live as the player bets (bonus.progress), until it converts or expires.
 */
export function BonusDetails() {
  const { t } = useTranslation('promotions');
  const money = useMoney();
  const dateTime = useDateTime();
  const rewards = useRewards();
  usePromotionEvents();
  const bonuses = (rewards.data?.list ?? []).filter((r) => r.wagerRequired > 0);
  return (
    <div className="mc-card" data-testid="bonus-details">
      <h1 className="mc-title">{t('bonus_details')}</h1>
      {rewards.error && <FormMessage message={errorMessage(rewards.error)} />}
      <div>
        <span className="promo-card__meta">{t('bonus_balance')}</span>
        <p className="promo-balance" data-testid="bonus-balance">{money(rewards.data?.bonusBalance ?? 0)}</p>
        <span className="promo-card__meta">{t('bonus_balance_note')}</span>
      </div>
      {rewards.data && bonuses.length === 0 && <p className="promo-empty">{t('no_bonuses')}</p>}
      <div className="promo-list">
        {bonuses.map((b) => {
          const pct = Math.min(100, Math.floor((b.wagerProgress * 100) / Math.max(1, b.wagerRequired)));
          const left = Math.max(0, b.wagerRequired - b.wagerProgress);
          return (
            <div key={b.id} className="promo-row" data-testid={`bonus-${b.id}`} data-bonus-state={b.state}>
              <div className="promo-row__head">
                <strong>{b.title}</strong>
                <PromotionStatus status={b.status} />
              </div>
              <span>{t('amount', { amount: money(b.amount) })}</span>
              <div className="promo-progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={b.state === 'completed' ? 100 : pct} aria-label={t('wagering_progress')}>
                <div className="promo-progress__bar" style={{ width: `${b.state === 'completed' ? 100 : pct}%` }} />
              </div>
              <span data-testid="bonus-progress">{t('wagered', { done: money(Math.min(b.wagerProgress, b.wagerRequired)), required: money(b.wagerRequired) })}</span>
              {b.state === 'processing' && <span className="promo-card__meta" data-testid="bonus-left">{t('wager_left', { left: money(left) })}</span>}
              {b.owed > 0 && <span className="promo-card__meta" data-testid="bonus-owed">{t('bonus_owed', { owed: money(b.owed), rest: money(Math.max(0, b.amount - b.owed)) })}</span>}
              {b.state === 'processing' && b.expiresAt && <span className="promo-card__meta">{t('expires', { when: dateTime(b.expiresAt) })}</span>}
            </div>
          );
        })}
      </div>
    </div>
  );
}
