import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../ui/icons';

/**
 * Logged-in part of the header. Balance (show/hide, refresh), the user menu and the deposit
 * button come with the accounts and wallet work; this slot is where they go.
 */
export function AccountSlot() {
  const { t } = useTranslation('common');
  return (
    <div className="account-slot" data-slot="account">
      <Link to="/member" className="btn btn--ghost btn--sm">
        <Icon name="user" size={16} />
        <span>{t('page_member')}</span>
      </Link>
    </div>
  );
}
