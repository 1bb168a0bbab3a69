/**
 * Query keys shared across layers (realtime writes into them, features read them).
 * Feature-private keys stay in the feature's api file.
 */
export const QUERY_KEYS = {
  systemStatus: ['system', 'status'] as const,
  whitelabel: ['system', 'whitelabel'] as const,
  domainRoute: ['system', 'domainRoute'] as const,
  /** GET /wps/system/setting/register; `system.changed` with part `registration` marks it stale. */
  registerSettings: ['system', 'setting', 'register'] as const,
  /** Winner board (GCSGAME_getRankList). Data is the call's value `{ list: TWinner[] }`; `winner.posted` prepends to it. */
  rankList: ['rankList'] as const,
  /** Prefix of GET /wps/v2/wallets/balance (`[...balance, token]`); data is TBalance, `balance.changed` writes into it. */
  balance: ['wallet', 'balance'] as const,
  /** Prefix of relay CSP_unreadCount (`[...unreadCount, token]`); data is `{ count, byCategory }`, `message.received` writes into it. */
  unreadCount: ['messages', 'unread'] as const,
  /** Prefix of GET /wps/v2/messages pages; `message.received` marks them stale. */
  messages: ['messages', 'list'] as const,
  /** Prefix of the announcements call (`[...announcements, language]`): banners, notices, popups; `content.published` marks it stale. */
  announcements: ['announcements'] as const,
  /** Prefix of the help centre (`[...helpCenter, language]`). */
  helpCenter: ['helpCenter'] as const,
  /** Prefix of the news list and articles. */
  news: ['news'] as const,
  /**
   * Prefixes of every query that lists games or vendors (home lanes and hot games, game centre, vendor
   * names, favourites, a provider's games in the launch dialog): `system.changed` with part `games`
   * (maintenance, order, hot rank set on /ops/games) marks them stale.
   */
  gameCatalogue: [['home'], ['gameCentre'], ['gameVendor'], ['favourites'], ['launch', 'providerGames'], ['siteFacts', 'games']] as const,
};
