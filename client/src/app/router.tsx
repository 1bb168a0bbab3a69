import { createBrowserRouter } from 'react-router-dom';
import type { RouteObject } from 'react-router-dom';
import type { ReactNode } from 'react';
import { AgentLayout } from './layout/agent-layout';
import { MainLayout } from './layout/main-layout';
import { RequireAuth } from './layout/require-auth';
import type { RouteHandle } from './route-handle';
import { AgentPage } from './routes/agent-page';
import { ComingSoonPage } from './routes/coming-soon-page';
import { DownloadPage } from './routes/download-page';
import { GameCentrePage, GameListCenterPage } from './routes/game-list-center-page';
import { HomeRoute } from './routes/home-route';
import { HelpRoute, LoginRoute, RegisterRoute } from './routes/popup-routes';
import { RouteError } from './routes/route-error';

type RouteDef = { id: string; path: string; titleKey: string; auth?: boolean; footer?: boolean; element: ReactNode };

function route({ id, path, titleKey, auth, footer, element }: RouteDef): RouteObject {
  const handle: RouteHandle = { titleKey, ...(footer === false ? { footer } : {}) };
  return { id, path, handle, element: auth ? <RequireAuth>{element}</RequireAuth> : element };
}

const soon = (titleKey: string) => <ComingSoonPage titleKey={titleKey} />;
const gameCentre = (titleKey: string) => <GameCentrePage titleKey={titleKey} />;

/**
 * Routes of spec section 2 (history mode). The id is the route name: the shell scrolls to the top
 * when it changes. Paths match case-insensitively (/vnlottery is /vnLottery).
 */
export const MAIN_ROUTES: RouteDef[] = [
  { id: 'home', path: '/', titleKey: 'w_home', element: <HomeRoute /> },
  { id: 'index', path: '/index', titleKey: 'w_home', element: <HomeRoute /> },
  { id: 'indexHtml', path: '/index.html', titleKey: 'w_home', element: <HomeRoute /> },
  { id: 'homeAlias', path: '/home', titleKey: 'w_home', element: <HomeRoute /> },
  { id: 'login', path: '/login', titleKey: 'w_login', element: <LoginRoute /> },
  { id: 'register', path: '/register', titleKey: 'w_reg', element: <RegisterRoute /> },
  { id: 'help', path: '/help', titleKey: 'w_help', element: <HelpRoute /> },
  { id: 'member', path: '/member', titleKey: 'page_member', auth: true, element: soon('page_member') },
  { id: 'down', path: '/down', titleKey: 'w_download', element: <DownloadPage /> },
  { id: 'sports', path: '/sports', titleKey: 'w_sports', element: gameCentre('w_sports') },
  { id: 'esports', path: '/esports', titleKey: 'w_esports', element: gameCentre('w_esports') },
  { id: 'fish', path: '/fish', titleKey: 'w_fish', element: gameCentre('w_fish') },
  { id: 'live', path: '/live', titleKey: 'w_live', element: gameCentre('w_live') },
  { id: 'pvp', path: '/pvp', titleKey: 'w_pvp', element: gameCentre('w_pvp') },
  { id: 'jili', path: '/jili', titleKey: 'nav_jili', element: gameCentre('nav_jili') },
  { id: 'rng', path: '/rng', titleKey: 'w_rng', element: gameCentre('w_rng') },
  { id: 'lottery', path: '/lottery', titleKey: 'page_lottery', auth: true, element: gameCentre('page_lottery') },
  { id: 'seaLottery', path: '/seaLottery', titleKey: 'page_sea_lottery', auth: true, element: gameCentre('page_sea_lottery') },
  { id: 'vnLottery', path: '/vnLottery', titleKey: 'page_vn_lottery', auth: true, element: gameCentre('page_vn_lottery') },
  { id: 'promotions', path: '/promotions', titleKey: 'w_promotions', element: soon('w_promotions') },
  { id: 'pointMall', path: '/pointMall', titleKey: 'w_shop', element: soon('w_shop') },
  { id: 'sponsor', path: '/sponsor', titleKey: 'page_sponsor', element: soon('page_sponsor') },
  { id: 'description', path: '/description', titleKey: 'page_description', element: soon('page_description') },
  { id: 'seamless', path: '/seamless', titleKey: 'page_seamless', auth: true, footer: false, element: soon('page_seamless') },
  { id: 'lott', path: '/lott', titleKey: 'w_lott', element: gameCentre('w_lott') },
  { id: 'elott', path: '/elott', titleKey: 'w_elott', element: gameCentre('w_elott') },
  { id: 'cockfight', path: '/cockfight', titleKey: 'w_cockfight', element: gameCentre('w_cockfight') },
  { id: 'gameListCenter', path: '/gameListCenter/:vassalage/:gameType', titleKey: 'page_game_list', element: <GameListCenterPage /> },
  { id: 'notFound', path: '*', titleKey: 'w_home', element: <HomeRoute /> },
];

export const AGENT_ROUTES: RouteDef[] = [
  { id: 'agent', path: '/agent', titleKey: 'page_agent', element: <AgentPage titleKey="page_agent" /> },
  { id: 'agentHome', path: '/agentHome', titleKey: 'page_agent_centre', auth: true, element: <AgentPage titleKey="page_agent_centre" /> },
];

export function createRouter() {
  return createBrowserRouter([
    { id: 'agentShell', element: <AgentLayout />, errorElement: <RouteError />, children: AGENT_ROUTES.map(route) },
    { id: 'shell', element: <MainLayout />, errorElement: <RouteError />, children: MAIN_ROUTES.map(route) },
  ]);
}
