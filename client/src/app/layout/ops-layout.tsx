import { Suspense, useEffect, useRef, useState } from 'react';
import { PAGE_FALLBACK } from '../lazy-page';
import { NavLink, Outlet, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { opsCan } from '@portal/contracts/api/ops';
import { groupedNav, sectionOf, visibleNav } from '../../features/ops/lib/ops-nav';
import { OperatorBadge, OpsGate, SignOutButton } from '../../features/ops/components/ops-gate';
import { OpsZoneNote } from '../../features/ops/components/ops-time';
import { useOpsSession } from '../../features/ops/api/get-session';
import { SUPPORTED_LANGUAGES } from '@portal/contracts/domain/constants';
import { LanguageSelect } from './language-select';
import { RouteEffects } from './route-effects';
import { ThemeToggle } from './theme-toggle';

/** The sections the operator may open, under their group headings (a side column on desktop). */
function OpsSideNav() {
  const { t } = useTranslation('ops');
  const session = useOpsSession().data;
  const nav = useRef<HTMLElement>(null);
  // The column scrolls on short screens: keep the open section's link in view (the column only, never the page).
  const { pathname } = useLocation();
  useEffect(() => {
    const box = nav.current;
    const active = box?.querySelector<HTMLElement>('.ops-nav__link.is-active');
    if (!box || !active || box.scrollHeight <= box.clientHeight) return;
    const top = active.offsetTop - box.offsetTop;
    if (top < box.scrollTop || top + active.offsetHeight > box.scrollTop + box.clientHeight) box.scrollTop = top - box.clientHeight / 2;
  }, [pathname, session]);
  const groups = groupedNav(visibleNav(session?.roles ?? [], session?.isPlatform === true, opsCan));
  // On a phone the sections fold under one button naming the open one (they filled the first screen);
  // choosing a section folds them again. On a wider screen the button is hidden and the column always shows.
  const [open, setOpen] = useState(false);
  useEffect(() => setOpen(false), [pathname]);
  const current = groups.flatMap((g) => g.items).find((n) => pathname === n.to || pathname.startsWith(`${n.to}/`));
  return (
    <nav ref={nav} className={`ops-nav${open ? ' is-open' : ''}`} aria-label={t('area_name')}>
      <button type="button" className="ops-nav__toggle" aria-expanded={open} aria-controls="ops-nav-sections" onClick={() => setOpen(!open)} data-testid="ops-menu-toggle">
        <span aria-hidden="true">☰</span> {t('nav_menu')}{current ? ` · ${t(current.key)}` : ''}
      </button>
      <div className="ops-nav__sections" id="ops-nav-sections">
      {groups.map((g) => (
        <div key={g.group} className="ops-nav__group" role="group" aria-labelledby={`ops-nav-head-${g.group}`} data-testid={`ops-navgroup-${g.group}`}>
          <p className="ops-nav__head" id={`ops-nav-head-${g.group}`}>{t(`nav_group_${g.group}`)}</p>
          {g.items.map((n) => (
            <NavLink key={n.id} to={n.to} className={({ isActive }) => `ops-nav__link${isActive ? ' is-active' : ''}`} data-testid={`ops-nav-${n.id}`}>
              {t(n.key)}
            </NavLink>
          ))}
        </div>
      ))}
      </div>
    </nav>
  );
}

/**
 * A section the operator's roles do not open, reached by its address, says so and loads nothing: its page
 * used to render its forms and buttons, call the API for a 403 each visit and log it. The server still
 * refuses every call on its own; this is what the operator sees.
 */
function SectionGate() {
  const { t } = useTranslation('common');
  const { pathname } = useLocation();
  const session = useOpsSession().data;
  const section = sectionOf(pathname);
  const allowed = !section || !session || (section.platform ? session.isPlatform === true : opsCan(session.roles, section.action));
  if (allowed) return <Outlet />;
  return <p className="ops-note ops-note--error" role="alert" data-testid="ops-no-access">{t('common:error_FORBIDDEN')}</p>;
}

/** Past the door (password changed, TOTP enrolled): the top bar then says who is in and offers the way out. */
function useInside(): boolean {
  const { data } = useOpsSession();
  return !!data && !data.mustChangePassword && data.totpEnrolled;
}

/** /ops renders the back office alone: no player header, footer, side menu or popups. */
export function OpsLayout() {
  const { t } = useTranslation('ops');
  const inside = useInside();
  return (
    <div className="shell shell--ops ops-shell">
      <RouteEffects />
      <header className="ops-top">
        <span className="ops-top__brand">{t('area_name')}</span>
        <div className="ops-top__tools">
          {inside && <OpsZoneNote />}
          {inside && <OperatorBadge />}
          <LanguageSelect languages={SUPPORTED_LANGUAGES} />
          <ThemeToggle />
          {inside && <SignOutButton />}
        </div>
      </header>
      <OpsGate>
        <div className="ops-body">
          <OpsSideNav />
          <main className="ops-main">
            {/* A page waiting for a namespace it uses (i18n.ts, useSuspense) spins here, the column stays. */}
            <Suspense fallback={PAGE_FALLBACK}>
              <SectionGate />
            </Suspense>
          </main>
        </div>
      </OpsGate>
    </div>
  );
}
