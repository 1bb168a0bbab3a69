import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';

/**
 * An address the portal has no page for (a typo, an old bookmark): says so, with the address, and
 * leads home. It used to show the home page under the wrong address, titled "Home".
 */
export function NotFoundPage() {
  const { t } = useTranslation('common');
  const { pathname } = useLocation();
  return (
    <section className="container not-found" data-testid="not-found">
      <header className="page-head">
        <h1>{t('page_not_found')}</h1>
        <p className="muted">{t('not_found_text', { path: pathname })}</p>
      </header>
      <p>
        <Link to="/" className="btn btn--primary" data-testid="not-found-home">{t('not_found_home')}</Link>
      </p>
    </section>
  );
}
