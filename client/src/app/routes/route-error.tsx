import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { hideBootLoader } from '../../lib/boot-loader';

/** Last resort when a page throws: a calm message and a reload. */
export function RouteError() {
  const { t } = useTranslation('common');
  useEffect(hideBootLoader, []);
  return (
    <main className="system-page">
      <div className="system-page__card">
        <h1 className="system-page__title">{t('error_INTERNAL')}</h1>
        <p className="system-page__text">{t('page_error_text')}</p>
        <button type="button" className="btn btn--primary" onClick={() => window.location.reload()}>
          {t('reload')}
        </button>
      </div>
    </main>
  );
}
