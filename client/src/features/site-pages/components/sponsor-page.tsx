import { useTranslation } from 'react-i18next';
import { useCustomerService } from '../../../lib/domain-route';
import './site-pages.css';

/**
 * /sponsor: partnerships and sponsorship. The site names no sponsorships it does not have: it says
 * what it sponsors, what it does not, and how to propose one (through the configured customer-service
 * channels).
 */
export function SponsorPage() {
  const { t } = useTranslation('pages');
  const service = useCustomerService();
  return (
    <section className="container site-page" data-testid="sponsor-page">
      <header className="page-head site-hero">
        <h1>{t('sponsor_title')}</h1>
        <p className="muted">{t('sponsor_intro')}</p>
      </header>
      <div className="site-cards">
        {(['what', 'rules', 'how'] as const).map((k) => (
          <article key={k} className="site-card">
            <h2>{t(`sponsor_${k}_title`)}</h2>
            <p>{t(`sponsor_${k}_text`)}</p>
          </article>
        ))}
      </div>
      <aside className="site-note">
        <strong>{t('sponsor_contact_title')}</strong>
        {service.length ? (
          <ul className="site-contacts">
            {service.map((s) => (
              <li key={`${s.csType}-${s.url}`}>
                <a href={s.url} target="_blank" rel="noopener noreferrer">{s.title || s.csType}</a>
              </li>
            ))}
          </ul>
        ) : (
          <p>{t('sponsor_contact_none')}</p>
        )}
      </aside>
    </section>
  );
}
