import { useTranslation } from 'react-i18next';
import type { TActivityStatus } from '@portal/contracts/domain/promotions';

/**
 * An activity status (spec section 4) as a chip. `signed` is the player's sign-up to the promotion
 * ("Joined"); for a daily sign-in (`kind`), today's sign-in ("Signed in today").
 */
export function PromotionStatus({ status, kind }: { status: TActivityStatus; kind?: string }) {
  const { t } = useTranslation('promotions');
  const key = status === 'signed' && kind === 'daily_signin' ? 'status_signed_daily' : `status_${status}`;
  return <span className={`promo-status promo-status--${status}`} data-promo-status={status}>{t(key)}</span>;
}
