import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { HEADER_SOCIAL_TYPES } from '@portal/contracts/domain/constants';
import { FreePlayButton } from '../../features/auth/components/free-play-button';
import { GameNav } from '../../features/games/components/game-nav';
import { openPopup } from '../../lib/popups';
import { useIsLoggedIn } from '../../lib/session';
import { useModule, useWhitelabel } from '../../lib/whitelabel';
import { Icon } from '../../ui/icons';
import { LanguageSelect } from './language-select';
import { RealtimeIndicator } from './realtime-indicator';
import { SocialLinks } from './social-links';
import { ThemeToggle } from './theme-toggle';
import { useNav } from './use-nav';
import { lazyNamed } from '../lazy-page';

/** The signed-in part (balance, user menu, sign-out machine) loads when someone is signed in. */
const AccountSlot = lazyNamed(() => import('./account-slot'), 'AccountSlot', null, ['wallet']);

export function Logo() {
  const { data } = useWhitelabel();
  const brand = data?.brand;
  return (
    <Link to="/" className="logo" aria-label={brand?.siteName ?? ''}>
      {brand?.logoUrl ? <img src={brand.logoUrl} alt={brand.siteName} className="logo__img" /> : <span className="logo__text">{brand?.siteName ?? ''}</span>}
    </Link>
  );
}

export function Header({ onOpenMenu }: { onOpenMenu: () => void }) {
  const { t } = useTranslation('common');
  const isLoggedIn = useIsLoggedIn();
  const canRegister = useModule('DIRECTREG3');
  const canFreePlay = useModule('FREEPLAY3');
  const nav = useNav();

  return (
    <header className="site-header">
      <div className="site-header__top container">
        <button type="button" className="icon-btn site-header__menu" onClick={onOpenMenu} aria-label={t('open_menu')}>
          <Icon name="menu" />
        </button>
        <Logo />
        <SocialLinks types={HEADER_SOCIAL_TYPES} className="site-header__social" />
        <div className="site-header__actions">
          <RealtimeIndicator />
          <LanguageSelect />
          <ThemeToggle />
          {isLoggedIn ? (
            <AccountSlot />
          ) : (
            <>
              {canFreePlay && <FreePlayButton className="btn btn--ghost btn--sm site-header__free-play" />}
              <button type="button" className="btn btn--outline btn--sm" onClick={() => openPopup('loginPopupModal')} data-testid="login-button">
                {t('login')}
              </button>
              {canRegister && (
                <button type="button" className="btn btn--primary btn--sm" onClick={() => openPopup('registerModal')} data-testid="register-button">
                  {t('register')}
                </button>
              )}
            </>
          )}
        </div>
      </div>
      <div className="site-header__nav">
        <div className="container">
          <GameNav entries={nav} />
        </div>
      </div>
    </header>
  );
}
