import { useTranslation } from 'react-i18next';
import type { TActivityStatus } from '@portal/contracts/domain/promotions';

/** An activity status (spec section 4) as a chip. */
export function PromotionStatus({ status }: { status: TActivityStatus }) {
  const { t } = useTranslation('promotions');
  return <span className={`promo-status promo-status--${status}`} data-promo-status={status}>{t(`status_${status}`)}</span>;
}
