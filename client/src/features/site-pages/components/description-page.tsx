import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { BIG_WIN_CENTAVOS } from '@portal/contracts/domain/money';
import { useCustomerService } from '../../../lib/domain-route';
import { useCurrency, useMoneyExample } from '../../../lib/use-money';
import { useGameCounts } from '../api/site-facts';
import './site-pages.css';

/**
 * /description: what the site is, and the marketing claims of the home page (spec section 1) next to
 * what this site can show for them right now: the catalogue's own counts, the customer-service channels
 * configured, the winners board's rule. A claim the site cannot back (a Zalo reward) is said to be absent.
 */
export function DescriptionPage() {
  const { t } = useTranslation('pages');
  const counts = useGameCounts();
  const { symbol } = useCurrency();
  const example = useMoneyExample();
  const service = useCustomerService();
  const figure = (n: number | null) => (n === null ? '…' : n.toLocaleString('en-US'));
  const facts = [
    { key: 'games', claim: t('desc_claim_games'), fact: counts.all === null ? t('desc_counting') : t('desc_fact_games', { n: figure(counts.all) }) },
    { key: 'slots', claim: t('desc_claim_slots'), fact: counts.slots === null ? t('desc_counting') : t('desc_fact_slots', { n: figure(counts.slots) }) },
    {
      key: 'service', claim: t('desc_claim_service'),
      fact: service.length ? t('desc_fact_service', { list: service.map((s) => s.title || s.csType).join(', ') }) : t('desc_fact_service_none'),
    },
    { key: 'licences', claim: t('desc_claim_licences'), fact: t('desc_fact_licences') },
    { key: 'winners', claim: t('desc_claim_winners'), fact: t('desc_fact_winners', { amount: `${symbol}${example(BIG_WIN_CENTAVOS, { whole: true })}` }) },
    { key: 'zalo', claim: t('desc_claim_zalo'), fact: t('desc_fact_zalo') },
  ];
  return (
    <section className="container site-page" data-testid="description-page">
      <header className="page-head">
        <h1>{t('desc_title')}</h1>
        <p className="muted">{t('desc_intro')}</p>
      </header>
      <div className="site-cards">
        {(['play', 'fair', 'safe', 'money'] as const).map((k) => (
          <article key={k} className="site-card">
            <h2>{t(`desc_${k}_title`)}</h2>
            <p>{t(`desc_${k}_text`)}</p>
          </article>
        ))}
      </div>
      <h2 className="site-h2">{t('desc_claims_title')}</h2>
      <p className="muted">{t('desc_claims_intro')}</p>
      <div className="site-table-box">
        <table className="site-table site-claims" data-testid="description-claims">
          <thead>
            <tr>
              <th>{t('desc_col_claim')}</th>
              <th>{t('desc_col_fact')}</th>
            </tr>
          </thead>
          <tbody>
            {facts.map((f) => (
              <tr key={f.key} data-testid={`claim-${f.key}`}>
                <td>{f.claim}</td>
                <td>{f.fact}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="site-links">
        <Link to="/winners" className="btn btn--outline btn--sm">{t('desc_see_winners')}</Link>
        <Link to="/help" className="btn btn--outline btn--sm">{t('desc_see_help')}</Link>
      </p>
    </section>
  );
}
