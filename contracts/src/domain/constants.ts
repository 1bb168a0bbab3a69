/**
 * Constants of spec sections 3 and 9. Everything here is data: no I/O, no behaviour.
 */

/** Module flags (spec section 3): switched per merchant, enforced on server and client. */
export const MODULE_FLAGS = [
  'USERNAMEREG3',
  'MOBILENUMREG3',
  'MOBILENUMPASSREG3',
  'REGMOBVERF3',
  'MOBILEVERCODELOGIN3',
  'FREEPLAY3',
  'PWDEXPFORCECHANGE3',
  'DIRECTREG3',
  'TRANSREC3',
  'TRANSBETREPMEM3',
  'AGENTPOLICY3',
  /** The in-portal live chat with the merchant's operators (api/chat.ts); not a flag of the spec's list. */
  'LIVECHAT3',
] as const;
export type ModuleFlag = (typeof MODULE_FLAGS)[number];
export type ModuleFlags = Record<ModuleFlag, boolean>;

/** Whitelabel settings that are not plain on/off modules. CHNGPASSVERIF3 picks the forgot-password default tab. */
export const FORGOT_PASSWORD_METHODS = ['email', 'mobile'] as const;

/** Game types used by navigation, vendors and games. */
export const GAME_TYPES = ['RNG', 'FISH', 'PVP', 'LIVE', 'SPORTS', 'ESPORTS', 'LOTT', 'ELOTT', 'COCKFIGHT'] as const;
export type GameType = (typeof GAME_TYPES)[number];

/** RNG sub-categories (gameClassify). BG (bingo) only when the TY language is supported. */
export const RNG_CLASSIFIES = ['SC', 'JP', 'TG', 'AC', 'BG'] as const;
export type RngClassify = (typeof RNG_CLASSIFIES)[number];

/** Navigation entries (spec section 2): name key, page key, game type and route. */
export const NAV_ITEMS = [
  { id: 'HOME', nameKey: 'nav_home', page: 'w_home', path: '/', gameType: null },
  { id: 'JL', nameKey: 'nav_jili', page: 'w_rng', path: '/jili', gameType: null },
  { id: 'ELOTT', nameKey: 'nav_elott', page: 'w_elott', path: '/lottery', gameType: 'ELOTT' },
  { id: 'LOTT', nameKey: 'nav_lott', page: 'w_lott', path: '/lottery', gameType: 'LOTT' },
  { id: 'LIVE', nameKey: 'nav_live', page: 'w_live', path: '/live', gameType: 'LIVE' },
  { id: 'SPORTS', nameKey: 'nav_sports', page: 'w_sports', path: '/sports', gameType: 'SPORTS' },
  { id: 'FISH', nameKey: 'nav_fish', page: 'w_fish', path: '/fish', gameType: 'FISH' },
  { id: 'RNG', nameKey: 'nav_rng', page: 'w_rng', path: '/rng', gameType: 'RNG' },
  { id: 'PVP', nameKey: 'nav_pvp', page: 'w_pvp', path: '/pvp', gameType: 'PVP' },
  { id: 'ESPORTS', nameKey: 'nav_esports', page: 'w_esports', path: '/esports', gameType: 'ESPORTS' },
  { id: 'COCKFIGHT', nameKey: 'nav_cockfight', page: 'w_cockfight', path: '/cockfight', gameType: 'COCKFIGHT' },
  { id: 'PROMO', nameKey: 'nav_promotions', page: 'w_promotions', path: '/promotions', gameType: null },
  { id: 'DOWN', nameKey: 'nav_download', page: 'w_download', path: '/down', gameType: null },
] as const;
export type NavItemId = (typeof NAV_ITEMS)[number]['id'];

/** Nav entries that never show the hover drop menu. */
export const NO_DROP_MENU: readonly string[] = ['HOME', 'PROMO', 'FACEBOOK', 'DOWN', 'JL'];

/** Web page keys named by the spec. */
export const PAGE_KEYS = [
  'w_home', 'w_promotions', 'w_rng', 'w_live', 'w_fish', 'w_pvp', 'w_sports', 'w_esports',
  'w_elott', 'w_lott', 'w_download', 'w_shop', 'w_help', 'w_reg', 'w_login', 'w_cockfight',
] as const;

/** Vendor codes with routing meaning (spec sections 2 and 3). */
export const VENDOR_CODES = {
  VN_LOTTERY: 'TCG_LOTTO_VN',
  SEA_LOTTERY: 'TCG_SEA',
  JILI: 'JL',
} as const;
export const ESPORT_GAME_CODES = ['AV', 'IMES', 'IA', 'AI', 'TF'] as const;
export const COCKFIGHT_CODES = ['DS88', 'DIG'] as const;
export const PRIZE_MODES = ['LOTT', 'ZY', 'ELOTT', 'SEA'] as const;
export const IS_GAME_VASSALAGE = 'VASSALAGE';

/** Member types (numeric). Agents: 1, 2, 41, 42. Trial: 4. */
export const AGENT_TYPES = [1, 2, 41, 42] as const;
export const TRIAL_TYPE = 4;
export const PLAYER_TYPE = 0;

/** Banner groups. */
export const BANNER_GROUPS = ['w_login', 'w_register', 'w_home', 'w_activity', 'w_model', 'w_video', 'w_event'] as const;
export type BannerGroup = (typeof BANNER_GROUPS)[number];

/** Announcement types requested by the home page: B banner, PL player notice, PU popup, PR promotion, H help. */
export const ANNOUNCEMENT_TYPES = ['B', 'PL', 'PU', 'PR', 'H'] as const;
/** Popup execution: A anonymous, B logged in, F first login. */
export const POPUP_EXECUTIONS = ['A', 'B', 'F'] as const;

/** Resource types for the app-download block and links. */
export const RESOURCE_TYPES = [
  'MOBILECONFIG', 'IOS', 'ANDROID', 'YOUTUBE', 'FACEBOOK', 'INSTAGRAM', 'TWITTER', 'TELEGRAM', 'LIVECHAT', 'VIDEO',
] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];
export const HEADER_SOCIAL_TYPES = ['YOUTUBE', 'FACEBOOK', 'INSTAGRAM'] as const;
export const FOOTER_SOCIAL_TYPES = ['FACEBOOK', 'INSTAGRAM', 'TWITTER', 'YOUTUBE', 'TELEGRAM'] as const;
export const CUSTOMER_SERVICE_TYPES = ['FACEBOOK', 'TELEGRAM', 'LIVECHAT'] as const;
/**
 * A LIVECHAT customer-service link with this URL is the in-portal chat room (api/chat.ts), opened over
 * the page, not an external site; any other URL stays an external link.
 */
export const LIVE_CHAT_URL = '/?chat=open';

/** Languages: brand supports EN and TY (complete); the selector offers the long list, falling back to EN. */
export const SUPPORTED_LANGUAGES = ['EN', 'TY'] as const;
export const DEFAULT_LANGUAGE = 'TY';
export const LANGUAGE_CODES = [
  'CN', 'EN', 'JA', 'TH', 'VI', 'MY', 'ES', 'HI', 'ID', 'KM', 'KO', 'MS', 'PT', 'TA', 'TW', 'TY',
  'UR', 'TR', 'BN', 'AR', 'FA', 'RU', 'KK', 'UZ', 'LO', 'NE', 'FR',
] as const;
export type LanguageCode = (typeof LANGUAGE_CODES)[number];
/** Video embed language map. */
export const VIDEO_LANGUAGE: Partial<Record<LanguageCode, string>> = { EN: 'en', TY: 'tl', CN: 'zh', VI: 'vi', TH: 'th' };

/** Drop-menu rebate labels per game type. */
export const REBATE_LABELS: Partial<Record<GameType, string>> = {
  LOTT: '1%', ELOTT: '1%', PVP: '-', FISH: '1%', RNG: '1.2%', LIVE: '0.8%', SPORTS: '1%', ESPORTS: '1%',
};

export const THEMES = ['dark', 'light'] as const;
export type Theme = (typeof THEMES)[number];
export const PERIOD_TYPES = ['daily', 'weekly', 'semi-monthly', 'monthly'] as const;

/** System status: 0 normal, 1 maintenance page, 2 region restricted (blocked page with the IP). */
export const SYSTEM_STATUS = { NORMAL: 0, MAINTENANCE: 1, BLOCKED: 2 } as const;

/** Business constants and limits (spec section 9). Times in milliseconds unless named otherwise. */
export const LIMITS = {
  REMEMBER_ME_MS: 24 * 60 * 60 * 1000,
  SMS_DEFAULT_EXPIRED_MINUTES: 1,
  SMS_SEND_THROTTLE_MS: 1000,
  CAPTCHA_REFRESH_THROTTLE_MS: 1000,
  FAVOURITE_THROTTLE_MS: 1000,
  RATE_LIMIT_LOCK_MS: 5 * 60 * 1000,
  DEFAULT_PASSWORD: '{secret}',
  REALTIME_SALARY_PERIOD_MS: 5 * 60 * 1000,
  MIN_AGE: 18,
  REMARK_MAX_CHARS: 140,
  FEEDBACK_MAX_CHARS: 140,
  IMAGE_MAX_BYTES: 5 * 1024 * 1024,
  IMAGE_MAX_COUNT: 3,
  IMAGE_TYPES: ['image/png', 'image/jpeg'],
  DATE_SHORTCUT_DAYS: [7, 30],
  ANNOUNCEMENT_PAGE_SIZE: 6,
  HOT_GAMES_HOME: 6,
  DROP_MENU_MAX_VENDORS: 11,
  WINNER_BOARD_LIMIT: 20,
  WINNER_SCROLL_STEP: 0.5,
  HOME_SLIDER_PAGE_SIZE: 20,
  HOME_SLIDER_PAGE_NO: 1,
  CLIENT_TYPE: 3,
  SLIDE_SPACING: 24,
  BANNER_AUTOPLAY_MS: 5000,
  BANNER_TRANSITION_MS: 1000,
  FOOTER_VENDOR_SLIDES: 9,
  FOOTER_VENDOR_SPACING: 30,
  QR_SIZE_DOWNLOAD: 180,
  QR_SIZE_SIDEBAR: 100,
  JACKPOT_HOME_MIN: 51101996,
  JACKPOT_HOME_MAX: 51273838,
  JACKPOT_DEFAULT_MIN: 1_400_000,
  JACKPOT_DEFAULT_MAX: 1_500_000,
  JACKPOT_STEP_MIN: 1000,
  JACKPOT_STEP_MAX: 1500,
  JACKPOT_INTERVALS_S: [3, 4, 5],
  JACKPOT_ROW_HEIGHT: 50,
  MODAL_DEFAULT_WIDTH: 200,
  MODAL_DEFAULT_HEIGHT: 200,
  MODAL_DEFAULT_DELAY_MS: 100,
  CHUNK_LOAD_TIMEOUT_MS: 120_000,
  /** Largest JSON body the gateway accepts. */
  MAX_BODY_BYTES: 64 * 1024,
} as const;

/** QR component defaults. */
export const QR_DEFAULTS = {
  size: 200, margin: 20, dark: '#000000', light: '#ffffff', logoScale: 0.2, cornerRadius: 8, dotScale: 1, binarizeThreshold: 128,
} as const;

/** Agent marketing text: consultation hours. */
export const AGENT_CONSULTATION_HOURS = { days: 'Monday-Friday', from: '12:00', to: '21:00' } as const;

/** Default member-centre and agent-centre pages. */
export const MEMBER_CENTRE_ITEMS = [
  'securityCenter', 'transferFund', 'depositv2', 'withdraw', 'transferUpline', 'personalHistoryCopy',
  'transactionHistory', 'personalProfit', 'bonusDetails', 'rewardCenter', 'referral', 'missionLeaderboard', 'messageV2', 'responsibleGaming',
  // Red envelopes grabbed (issue 14).
  'redEnvelopes',
] as const;
export const AGENT_CENTRE_ITEMS = [
  'agentAnnouncement', 'agentTeamOverview', 'registerCenter', 'downlineManagmentView', 'personalHistoryCopy',
  'palStatementsAgentCopy', 'agentRevenueReport', 'agentDownlineTransactionDetailsCopy', 'agentDividendRecordCopy2',
  'agentDailyWages2', 'agentHourSalary', 'agentRealtimeSalary',
] as const;
