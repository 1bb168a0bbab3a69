import { useState } from 'react';
import { Outlet } from 'react-router-dom';
import { useCurrentRoute } from '../route-handle';
import { useBreakNote } from '../../lib/break-note';
import { ExcludedBanner } from './excluded-banner';
import { GlobalPopups, LazyBreakNotice } from './lazy-popups';
import { Header } from './header';
import { RouteEffects } from './route-effects';
import { SideBar } from './side-bar';
import { SideMenu } from './side-menu';
import { lazyNamed } from '../lazy-page';

/** The footer (below the first screen of every page) comes in its own chunk after the first paint (issue 12). */
const Footer = lazyNamed(() => import('./footer'), 'Footer', null);

/** Every route but the agent pages: side menu, header, main view, footer, global popups. */
export function MainLayout() {
  const [isMenuOpen, setMenuOpen] = useState(false);
  const { handle } = useCurrentRoute();
  const hasBreakNote = useBreakNote() !== null;
  return (
    <div className="shell">
      <RouteEffects />
      <SideMenu open={isMenuOpen} onClose={() => setMenuOpen(false)} />
      <Header onOpenMenu={() => setMenuOpen(true)} />
      <main className="main-view" id="main">
        {hasBreakNote && <LazyBreakNotice />}
        <ExcludedBanner />
        <Outlet />
      </main>
      {handle?.footer !== false && <Footer />}
      <SideBar />
      <GlobalPopups />
    </div>
  );
}
