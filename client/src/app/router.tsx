import { createBrowserRouter } from 'react-router-dom';
import type { RouteObject } from 'react-router-dom';
import type { ReactNode } from 'react';
import { VENDOR_CODES } from '@portal/contracts/domain/constants';
import type { GameType } from '@portal/contracts/domain/constants';
import { MainLayout } from './layout/main-layout';
import { RequireAgent, RequireAuth, RequireRealAccount } from './layout/require-auth';
import type { RouteHandle } from './route-handle';
import { AGENT_ROUTES, MAIN_ROUTES } from './route-table';
import type { RouteId, RouteSpec } from './route-table';
import { lazyNamed } from './lazy-page';
import { retryImport } from '../lib/retry-import';
import { HomeRoute } from './routes/home-route';
import { NotFoundPage } from './routes/not-found-page';
import { HelpRoute, LoginRoute, RegisterRoute } from './routes/popup-routes';
import { OPS_ROUTE } from './routes/ops-routes';
import { HOUSE_ROUTE } from './routes/house-route';
import { RouteError } from './routes/route-error';
import { GameServices } from './game-services';
import { RgExclusionProvider } from './rg-exclusion-provider';

/**
 * Route-level code splitting: the member centre, the agent back office, the game pages and the
 * download page are separate chunks, fetched when first opened (the ops console and the house game
 * page are lazy routes of their own, see routes/ops-routes.tsx and routes/house-route.tsx). The
 * home page, its popups and the shell are what a first visit loads.
 */
const loadGamePages = () => import('./routes/game-list-center-page');
const loadAgentPages = () => import('./routes/agent-page');
const AGENT_NS = ['agents', 'agent-office', 'wallet', 'register', 'bets'];
const AgentLayout = lazyNamed(() => import('./layout/agent-layout'), 'AgentLayout', undefined, AGENT_NS);
const AgentLandingPage = lazyNamed(loadAgentPages, 'AgentLandingPage', undefined, AGENT_NS);
const AgentHomePage = lazyNamed(loadAgentPages, 'AgentHomePage', undefined, AGENT_NS);
const DownloadPage = lazyNamed(() => import('./routes/download-page'), 'DownloadPage', undefined, ['pages']);
const loadSitePages = () => import('./routes/site-pages');
const SponsorPage = lazyNamed(loadSitePages, 'SponsorPage', undefined, ['pages']);
const DescriptionPage = lazyNamed(loadSitePages, 'DescriptionPage', undefined, ['pages']);
const WinnersPage = lazyNamed(loadSitePages, 'WinnersPage', undefined, ['pages']);
const SeamlessPage = lazyNamed(loadSitePages, 'SeamlessPage', undefined, ['pages']);
const FeedbackPage = lazyNamed(loadSitePages, 'FeedbackPage', undefined, ['pages']);
const PromotionsPage = lazyNamed(() => import('../features/promotions/components/promotions-page'), 'PromotionsPage', undefined, ['promotions']);
const PointsMallPage = lazyNamed(() => import('../features/points/components/points-mall-page'), 'PointsMallPage', undefined, ['points', 'wallet', 'register']);
const NewsListPage = lazyNamed(() => import('../features/news/components/news-pages'), 'NewsListPage', undefined, ['home', 'wallet']);
const NewsArticlePage = lazyNamed(() => import('../features/news/components/news-pages'), 'NewsArticlePage', undefined, ['home']);
const MemberRoute = lazyNamed(() => import('./routes/member-route'), 'MemberRoute', undefined, ['register', 'wallet', 'bets', 'pages', 'promotions', 'missions']);
const GameCentrePage = lazyNamed(loadGamePages, 'GameCentrePage');
const GameListCenterPage = lazyNamed(loadGamePages, 'GameListCenterPage');
const LotteryPage = lazyNamed(loadGamePages, 'LotteryPage');
const SlotsPage = lazyNamed(loadGamePages, 'SlotsPage');
/** The JILI vendor code (VENDOR_CODES.JILI; kept here so the route table does not load the game pages). */
const JILI_VENDOR = VENDOR_CODES.JILI;

const gameCentre = (titleKey: string, gameType: GameType) => <GameCentrePage titleKey={titleKey} gameType={gameType} />;

/** What each route renders. Pages that later work fills in are honest placeholders. */
const ELEMENTS: Record<RouteId, ReactNode> = {
  agent: <AgentLandingPage />,
  agentHome: <AgentHomePage />,
  home: <HomeRoute />,
  index: <HomeRoute />,
  indexHtml: <HomeRoute />,
  homeAlias: <HomeRoute />,
  login: <LoginRoute />,
  register: <RegisterRoute />,
  help: <HelpRoute />,
  member: <MemberRoute />,
  down: <DownloadPage />,
  sports: gameCentre('w_sports', 'SPORTS'),
  esports: gameCentre('w_esports', 'ESPORTS'),
  fish: gameCentre('w_fish', 'FISH'),
  live: gameCentre('w_live', 'LIVE'),
  pvp: gameCentre('w_pvp', 'PVP'),
  jili: <SlotsPage titleKey="nav_jili" vendor={JILI_VENDOR} />,
  rng: <SlotsPage titleKey="w_rng" />,
  lottery: <LotteryPage titleKey="page_lottery" kind="lottery" />,
  seaLottery: <LotteryPage titleKey="page_sea_lottery" kind="sea" />,
  vnLottery: <LotteryPage titleKey="page_vn_lottery" kind="vn" />,
  promotions: <PromotionsPage />,
  pointMall: <PointsMallPage />,
  sponsor: <SponsorPage />,
  description: <DescriptionPage />,
  seamless: <SeamlessPage />,
  feedback: <FeedbackPage />,
  winners: <WinnersPage />,
  lott: gameCentre('w_lott', 'LOTT'),
  elott: gameCentre('w_elott', 'ELOTT'),
  cockfight: gameCentre('w_cockfight', 'COCKFIGHT'),
  gameListCenter: <GameListCenterPage />,
  news: <NewsListPage />,
  newsArticle: <NewsArticlePage />,
  notFound: <NotFoundPage />,
};

function toRoute(spec: RouteSpec & { id: RouteId }): RouteObject {
  const handle: RouteHandle = { titleKey: spec.titleKey, ...(spec.footer === false ? { footer: false } : {}) };
  const element = ELEMENTS[spec.id];
  return { id: spec.id, path: spec.path, handle, element: guard(spec, element) };
}

/** Guards: login for `auth` routes; agents only for /agentHome (others back to /agent); no trial users in the member centre or feedback. */
function guard(spec: RouteSpec & { id: RouteId }, element: ReactNode): ReactNode {
  if (spec.id === 'agentHome') return <RequireAgent pending={<div className="page-spinner" aria-hidden="true" />}>{element}</RequireAgent>;
  // Trial accounts have no member centre and cannot send feedback (the server refuses both).
  if (spec.id === 'member' || spec.id === 'feedback') return <RequireAuth><RequireRealAccount>{element}</RequireRealAccount></RequireAuth>;
  return spec.auth ? <RequireAuth>{element}</RequireAuth> : element;
}

/** A lazy route whose chunk fetch a lost connection does not break (retryImport), its children too. */
function retrying(route: RouteObject): RouteObject {
  const { lazy } = route;
  return {
    ...route,
    ...(typeof lazy === 'function' ? { lazy: () => retryImport(lazy) } : {}),
    ...(route.children ? { children: route.children.map(retrying) } : {}),
  } as RouteObject;
}

export function createRouter() {
  return createBrowserRouter([
    retrying(OPS_ROUTE),
    retrying(HOUSE_ROUTE),
    { id: 'agentShell', element: <AgentLayout />, errorElement: <RouteError />, children: AGENT_ROUTES.map(toRoute) },
    { id: 'shell', element: <RgExclusionProvider><GameServices><MainLayout /></GameServices></RgExclusionProvider>, errorElement: <RouteError />, children: MAIN_ROUTES.map(toRoute) },
  ]);
}
