import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { FOOTER_SOCIAL_TYPES, LIMITS } from '@portal/contracts/domain/constants';
import { useGameVendors } from '../../features/games/api/get-game-vendors';
import { VendorLogos } from '../../features/games/components/vendor-logos';
import { uniqueVendors } from '../../features/games/lib/nav';
import { useHelpCenter } from '../../features/help/api/get-help-center';
import { currentLanguage } from '../../i18n/i18n';
import { openPopup } from '../../lib/popups';
import { useWhitelabel } from '../../lib/whitelabel';
import { Logo } from './header';
import { ResponsibleGamingBadges } from './rg-badges';
import { SocialLinks } from './social-links';

/** Content pages reached from the footer's help list (issue 14). */
const FOOTER_PAGES = [
  { to: '/feedback', key: 'page_feedback' },
  { to: '/winners', key: 'page_winners' },
  { to: '/sponsor', key: 'page_sponsor' },
  { to: '/pointMall', key: 'w_shop' },
] as const;
import { useNav } from './use-nav';

export function Footer() {
  const { t, i18n } = useTranslation('common');
  const lang = currentLanguage();
  const help = useHelpCenter(lang);
  const vendors = useGameVendors();
  const { data: whitelabel } = useWhitelabel();
  const nav = useNav();
  const brand = whitelabel?.brand;

  return (
    <footer className="site-footer" data-lang={i18n.language}>
      <div className="container">
        <div className="site-footer__vendors">
          <VendorLogos vendors={uniqueVendors(vendors.data ?? [])} />
        </div>
        <div className="site-footer__grid">
          <section className="site-footer__brand">
            <Logo />
            <p className="muted">{t('footer_tagline')}</p>
            <SocialLinks types={FOOTER_SOCIAL_TYPES} className="site-footer__social" />
          </section>
          <section>
            <h2 className="site-footer__heading">{t('w_help')}</h2>
            <ul className="site-footer__links" data-testid="footer-help">
              {(help.data ?? []).map((item) => (
                <li key={item.id}>
                  <button type="button" className="link-btn" onClick={() => openPopup('helpModal', { anchor: item.anchor })}>
                    {item.title}
                  </button>
                </li>
              ))}
              {FOOTER_PAGES.map((p) => (
                <li key={p.to}>
                  <Link to={p.to} data-testid={`footer-page-${p.to.slice(1)}`}>{t(p.key)}</Link>
                </li>
              ))}
              <li>
                <Link to="/news" data-testid="footer-news">{t('page_news')}</Link>
              </li>
            </ul>
          </section>
          <section>
            <h2 className="site-footer__heading">{t('products')}</h2>
            <ul className="site-footer__links site-footer__links--cols">
              {nav
                .filter((n) => n.id !== 'HOME' && n.id !== 'DOWN')
                .map((n) => (
                  <li key={n.id}>
                    <Link to={n.path}>{t(n.nameKey)}</Link>
                  </li>
                ))}
            </ul>
          </section>
          <section>
            <h2 className="site-footer__heading">{t('responsible_gaming')}</h2>
            <ResponsibleGamingBadges minAge={brand?.minAge ?? LIMITS.MIN_AGE} />
            <p className="muted small">{t('responsible_gaming_text', { age: brand?.minAge ?? LIMITS.MIN_AGE })}</p>
            <button type="button" className="link-btn small" onClick={() => openPopup('rgFamilyModal')} data-testid="footer-rg-family">{t('rg_family_link')}</button>
          </section>
        </div>
        <p className="site-footer__copy muted small">{t('footer_copyright', { year: new Date().getFullYear(), site: brand?.siteName ?? '' })}</p>
      </div>
    </footer>
  );
}
