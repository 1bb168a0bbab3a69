import { Link, Navigate, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { opsCan } from '@portal/contracts/api/ops';
import { useOpsSession } from '../../features/ops/api/get-session';
import { OPS_NAV } from '../../features/ops/lib/ops-nav';
import { PageHead } from '../../features/ops/components/ops-ui';

/** The first section the operator's roles open. */
function useFirstSection(): string | null {
  const roles = useOpsSession().data?.roles;
  if (!roles) return null;
  return OPS_NAV.find((n) => opsCan(roles, n.action))?.to ?? '/ops/site';
}

/** /ops once signed in: the first section the operator's roles open. */
export function OpsIndex() {
  const first = useFirstSection();
  return first ? <Navigate to={first} replace /> : null;
}

/**
 * An /ops address with no page (a typo, an old bookmark): says so, with the address, and leads to the
 * operator's first section. It used to open that section silently under the wrong address.
 */
export function OpsNotFound() {
  const { t } = useTranslation('ops');
  const { pathname } = useLocation();
  const first = useFirstSection();
  return (
    <section className="ops-page" data-testid="ops-not-found">
      <PageHead title={t('common:page_not_found')} />
      <p className="ops-muted">{t('common:not_found_text', { path: pathname })}</p>
      {first && <p><Link className="ops-btn" to={first} data-testid="ops-not-found-back">{t('not_found_back')}</Link></p>}
    </section>
  );
}
