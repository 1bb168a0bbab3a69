import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { TRANSACTION_PASSWORD_HREF } from '../lib/transaction-password';
import './form.css';

/**
 * Where a form that asks for the transaction password sends the player to set or change it: the
 * security centre's item. Not set: a notice with the way there (the form cannot succeed without it).
 * Set: a quiet "change it" link beside the field.
 */
export function TransactionPasswordLink({ isSet, onLeave }: {
  isSet: boolean;
  /** Called when the link is followed (a dialog showing it closes). */
  onLeave?: () => void;
}) {
  const { t } = useTranslation('common');
  if (isSet) {
    return (
      <p className="form-notice">
        <Link to={TRANSACTION_PASSWORD_HREF} onClick={onLeave} className="link-btn" data-testid="txpw-change-link">{t('txpw_change_link')}</Link>
      </p>
    );
  }
  return (
    <p className="notice-box" role="status" data-testid="txpw-not-set">
      {t('txpw_not_set')}{' '}
      <Link to={TRANSACTION_PASSWORD_HREF} onClick={onLeave} className="link-btn" data-testid="txpw-set-link">{t('txpw_set_link')}</Link>
    </p>
  );
}
