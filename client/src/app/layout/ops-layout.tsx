import { Suspense, useEffect, useRef } from 'react';
import { PAGE_FALLBACK } from '../lazy-page';
import { NavLink, Outlet, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { opsCan } from '@portal/contracts/api/ops';
import { visibleNav } from '../../features/ops/lib/ops-nav';
import { OperatorBadge, OpsGate, SignOutButton } from '../../features/ops/components/ops-gate';
import { useOpsSession } from '../../features/ops/api/get-session';
import { LanguageSelect } from './language-select';
import { RouteEffects } from './route-effects';
import { ThemeToggle } from './theme-toggle';

function OpsNavLinks() {
  const { t } = useTranslation('ops');
  const session = useOpsSession().data;
  // The bar scrolls sideways on narrow screens: keep the open section's link in view.
  const { pathname } = useLocation();
  const probe = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const active = probe.current?.parentElement?.querySelector<HTMLElement>('.ops-nav__link.is-active');
    active?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [pathname, session]);
  return (
    <>
      <span ref={probe} hidden />
      {visibleNav(session?.roles ?? [], session?.isPlatform === true, opsCan).map((n) => (
        <NavLink key={n.id} to={n.to} className={({ isActive }) => `ops-nav__link${isActive ? ' is-active' : ''}`} data-testid={`ops-nav-${n.id}`}>
          {t(n.key)}
        </NavLink>
      ))}
    </>
  );
}

/** /ops renders the back office alone: no player header, footer, side menu or popups. */
export function OpsLayout() {
  const { t } = useTranslation('ops');
  return (
    <div className="shell shell--ops ops-shell">
      <RouteEffects />
      <header className="ops-top">
        <span className="ops-top__brand">{t('area_name')}</span>
        <div className="ops-top__tools">
          <LanguageSelect />
          <ThemeToggle />
        </div>
      </header>
      <OpsGate>
        <nav className="ops-nav" aria-label={t('area_name')}>
          <OpsNavLinks />
          <span className="ops-nav__spacer" />
          <OperatorBadge />
          <SignOutButton />
        </nav>
        <main className="ops-main">
          {/* A page waiting for a namespace it uses (i18n.ts, useSuspense) spins here, the bar stays. */}
          <Suspense fallback={PAGE_FALLBACK}>
            <Outlet />
          </Suspense>
        </main>
      </OpsGate>
    </div>
  );
}
