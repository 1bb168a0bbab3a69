import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/field-message';
import { useRgExclusion } from '../../../lib/rg-exclusion';
import { useDateTime, useMoney } from '../../../lib/use-money';
import { ExclusionNotice } from '../../../ui/exclusion-notice';
import { FormMessage } from '../../../ui/form-field';
import { useClaimReward, useRewards } from '../api/promotions';
import { PromotionStatus } from './promotion-status';
import { useSingleFlight } from '../../../lib/single-flight';
import { usePromotionEvents } from './use-promotion-events';
import './promotions.css';

/** Member centre `rewardCenter`: every reward of the player with its status; claimable ones are claimed here. */
export function RewardCentre() {
  const { t } = useTranslation('promotions');
  const money = useMoney();
  const dateTime = useDateTime();
  const rewards = useRewards();
  const claim = useClaimReward();
  // One claim of a reward in flight: a double click claimed twice and the second's CONFLICT hid the success.
  const flight = useSingleFlight();
  const claimError = flight.error(claim.error, claim.variables === undefined ? null : String(claim.variables));
  // An excluded player's claims are refused (RG_EXCLUDED): say so once, no claim buttons.
  const exclusion = useRgExclusion();
  usePromotionEvents();
  const list = rewards.data?.list ?? [];
  return (
    <div className="mc-card" data-testid="reward-centre">
      <h1 className="mc-title">{t('reward_centre')}</h1>
      {exclusion && <ExclusionNotice exclusion={exclusion} place="rewards" />}
      {(rewards.error ?? claimError) && <FormMessage message={errorMessage(rewards.error ?? claimError)} />}
      {rewards.data && list.length === 0 && <p className="promo-empty">{t('no_rewards')}</p>}
      <div className="promo-list">
        {list.map((r) => (
          <div key={r.id} className="promo-row" data-testid={`reward-${r.id}`}>
            <div className="promo-row__head">
              <strong>{r.title}</strong>
              <PromotionStatus status={r.status} />
            </div>
            <span className="promo-card__meta">{`${t(`category_${r.category}`)} · ${dateTime(r.createdAt)}${r.periodKey ? ` · ${r.periodKey}` : ''}`}</span>
            {r.amount > 0 && <span>{t('amount', { amount: money(r.amount) })}</span>}
            {r.remark && <span className="promo-card__meta">{t('your_remark', { remark: r.remark })}</span>}
            {r.decisionReason && <span className="promo-card__meta">{t('decision_reason', { reason: r.decisionReason })}</span>}
            {r.state === 'claimable' && !exclusion && (
              <span className="promo-card__actions">
                <button type="button" className="btn btn--primary btn--sm" disabled={claim.isPending} onClick={() => flight.run(r.id, () => claim.mutateAsync(Number(r.id)))} data-testid="reward-claim">{t('action_claim')}</button>
              </span>
            )}
          </div>
        ))}
      </div>
    </div>
  );
}
