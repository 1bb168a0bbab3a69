import { useTranslation } from 'react-i18next';
import { LIVE_CHAT_URL } from '@portal/contracts/domain/constants';
import { useCustomerService } from '../../../lib/domain-route';

/**
 * Opens the merchant's customer service (live chat first) from the maintenance and blocked pages.
 * The in-portal chat room (LIVE_CHAT_URL) is left out here: those pages are shown because the
 * portal's calls are closed, the chat's with them; an external channel (Telegram, Messenger) is not.
 */
export function CustomerServiceButton() {
  const { t } = useTranslation('common');
  const links = useCustomerService().filter((l) => l.url !== LIVE_CHAT_URL);
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
