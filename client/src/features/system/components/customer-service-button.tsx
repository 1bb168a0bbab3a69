import { useTranslation } from 'react-i18next';
import { useCustomerService } from '../../../lib/domain-route';

/** Opens the merchant's customer service (live chat first). */
export function CustomerServiceButton() {
  const { t } = useTranslation('common');
  const links = useCustomerService();
  const link = links.find((l) => l.csType === 'LIVECHAT') ?? links[0];
  if (!link) {
    return (
      <button type="button" className="btn btn--primary btn--lg" disabled>
        {t('customer_service')}
      </button>
    );
  }
  return (
    <a className="btn btn--primary btn--lg" href={link.url} target="_blank" rel="noopener noreferrer">
      {t('customer_service')}
    </a>
  );
}
