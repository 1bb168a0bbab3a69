import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useMemberInfo } from '../../features/auth/api/get-member-info';
import { useDateTime } from '../../lib/use-money';

/**
 * An excluded player's session is a restricted one (the server refuses play, deposits, bets and
 * transfers with RG_EXCLUDED): say so on every page, with the way to the money and to the RG page.
 */
export function ExcludedBanner() {
  const { t } = useTranslation('common');
  const dateTime = useDateTime();
  const x = useMemberInfo().data?.rgExclusion;
  if (!x) return null;
  return (
    <div className="rg-banner" role="status" data-testid="rg-restricted-banner">
      <span>{x.until ? t('rg_restricted_until', { when: dateTime(x.until) }) : t('rg_restricted_open')}</span>{' '}
      <Link to="/member?tab=withdraw">{t('rg_restricted_withdraw')}</Link>{' · '}
      <Link to="/member?tab=responsibleGaming">{t('responsible_gaming')}</Link>
    </div>
  );
}
