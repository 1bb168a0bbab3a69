import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../ui/icons';

type ComingSoonProps = {
  /** Translation key of the page title. */
  titleKey: string;
  /** Extra context shown under the title (e.g. the chosen provider). */
  detail?: ReactNode;
};

/** Pages that later work fills in: an honest placeholder with the page's title. */
export function ComingSoonPage({ titleKey, detail }: ComingSoonProps) {
  const { t } = useTranslation('common');
  return (
    <section className="coming-soon container" data-page-placeholder={titleKey}>
      <div className="coming-soon__card">
        <span className="coming-soon__badge">
          <Icon name="spark" size={14} /> {t('coming_soon_badge')}
        </span>
        <h1 className="coming-soon__title">{t(titleKey)}</h1>
        {detail && <p className="coming-soon__detail">{detail}</p>}
        <p className="coming-soon__text">{t('coming_soon_text')}</p>
        <Link to="/" className="btn btn--primary">
          {t('back_home')}
        </Link>
      </div>
    </section>
  );
}
