import { useState } from 'react';
import { Outlet } from 'react-router-dom';
import { useCurrentRoute } from '../route-handle';
import { ExcludedBanner } from './excluded-banner';
import { Footer } from './footer';
import { GlobalPopups } from './lazy-popups';
import { Header } from './header';
import { RouteEffects } from './route-effects';
import { SideBar } from './side-bar';
import { SideMenu } from './side-menu';

/** Every route but the agent pages: side menu, header, main view, footer, global popups. */
export function MainLayout() {
  const [isMenuOpen, setMenuOpen] = useState(false);
  const { handle } = useCurrentRoute();
  return (
    <div className="shell">
      <RouteEffects />
      <SideMenu open={isMenuOpen} onClose={() => setMenuOpen(false)} />
      <Header onOpenMenu={() => setMenuOpen(true)} />
      <main className="main-view" id="main">
        <ExcludedBanner />
        <Outlet />
      </main>
      {handle?.footer !== false && <Footer />}
      <SideBar />
      <GlobalPopups />
    </div>
  );
}
