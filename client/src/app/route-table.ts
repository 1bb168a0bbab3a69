/**
 * Routes of spec section 2 as data (history mode). The id is the route name: the shell scrolls to
 * the top when it changes. Paths match case-insensitively (/vnlottery is /vnLottery).
 */
export type RouteSpec = {
  id: string;
  path: string;
  /** Translation key of the page title. */
  titleKey: string;
  /** Needs a session token; without one the route redirects to /login. */
  auth?: boolean;
  /** False for pages without footer. */
  footer?: boolean;
};

/** Rendered alone: no side menu, header or footer. */
export const AGENT_ROUTES = [
  { id: 'agent', path: '/agent', titleKey: 'page_agent' },
  { id: 'agentHome', path: '/agentHome', titleKey: 'page_agent_centre', auth: true },
] as const satisfies readonly RouteSpec[];

/** Side menu, header, main view, footer and global popups. */
export const MAIN_ROUTES = [
  { id: 'home', path: '/', titleKey: 'w_home' },
  { id: 'index', path: '/index', titleKey: 'w_home' },
  { id: 'indexHtml', path: '/index.html', titleKey: 'w_home' },
  { id: 'homeAlias', path: '/home', titleKey: 'w_home' },
  { id: 'login', path: '/login', titleKey: 'w_login' },
  { id: 'register', path: '/register', titleKey: 'w_reg' },
  { id: 'help', path: '/help', titleKey: 'w_help' },
  { id: 'member', path: '/member', titleKey: 'page_member', auth: true },
  { id: 'down', path: '/down', titleKey: 'w_download' },
  { id: 'sports', path: '/sports', titleKey: 'w_sports' },
  { id: 'esports', path: '/esports', titleKey: 'w_esports' },
  { id: 'fish', path: '/fish', titleKey: 'w_fish' },
  { id: 'live', path: '/live', titleKey: 'w_live' },
  { id: 'pvp', path: '/pvp', titleKey: 'w_pvp' },
  { id: 'jili', path: '/jili', titleKey: 'nav_jili' },
  { id: 'rng', path: '/rng', titleKey: 'w_rng' },
  { id: 'lottery', path: '/lottery', titleKey: 'page_lottery', auth: true },
  { id: 'seaLottery', path: '/seaLottery', titleKey: 'page_sea_lottery', auth: true },
  { id: 'vnLottery', path: '/vnLottery', titleKey: 'page_vn_lottery', auth: true },
  { id: 'promotions', path: '/promotions', titleKey: 'w_promotions' },
  { id: 'pointMall', path: '/pointMall', titleKey: 'w_shop' },
  { id: 'sponsor', path: '/sponsor', titleKey: 'page_sponsor' },
  { id: 'description', path: '/description', titleKey: 'page_description' },
  { id: 'seamless', path: '/seamless', titleKey: 'page_seamless', auth: true, footer: false },
  /** Screens the spec names without a route (section 2, "other screens"): feedback and the winners list. */
  { id: 'feedback', path: '/feedback', titleKey: 'page_feedback', auth: true },
  { id: 'winners', path: '/winners', titleKey: 'page_winners' },
  { id: 'lott', path: '/lott', titleKey: 'w_lott' },
  { id: 'elott', path: '/elott', titleKey: 'w_elott' },
  { id: 'cockfight', path: '/cockfight', titleKey: 'w_cockfight' },
  { id: 'gameListCenter', path: '/gameListCenter/:vassalage/:gameType', titleKey: 'page_game_list' },
  /** Blog and news (spec section 2 names them; no route given): the list and one article. */
  { id: 'news', path: '/news', titleKey: 'page_news' },
  { id: 'newsArticle', path: '/news/:id', titleKey: 'page_news' },
  { id: 'notFound', path: '*', titleKey: 'page_not_found' },
] as const satisfies readonly RouteSpec[];

export type RouteId = (typeof AGENT_ROUTES)[number]['id'] | (typeof MAIN_ROUTES)[number]['id'];

