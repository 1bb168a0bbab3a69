import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useMoney } from '../../../lib/use-money';
import { useAuth } from '../../auth/hooks/use-auth';
import { useRewards } from '../api/promotions';

/**
 * On the withdraw form: bonus money under wagering is not withdrawable (it is its own ledger account), so
 * the form says how much is held there and links to its wagering. A player with ₱130 in the wallet and a
 * ₱100 bonus was told only "insufficient balance" when asking for ₱230. Nothing when there is no bonus.
 */
export function LockedBonusNote() {
  const { t } = useTranslation('promotions');
  const money = useMoney();
  const { isTrial } = useAuth();
  // Kept current by the member centre's usePromotionEvents (bonus.progress, conversions).
  const bonus = useRewards(!isTrial).data?.bonusBalance ?? 0;
  if (bonus <= 0) return null;
  return (
    <p className="form-notice" data-testid="withdraw-bonus-note">
      {t('withdraw_bonus_note', { amount: money(bonus) })}{' '}
      <Link to="/member?tab=bonusDetails" className="link-btn">{t('bonus_details')}</Link>
    </p>
  );
}
