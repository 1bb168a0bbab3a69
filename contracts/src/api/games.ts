import { z } from 'zod';
import { defineCall, relayPath } from './envelope.ts';
import { GAME_TYPES, PRIZE_MODES, RNG_CLASSIFIES } from '../domain/constants.ts';

export const ZVendor = z.object({
  vassalage: z.string(),
  gameType: z.enum(GAME_TYPES),
  gameCategory: z.string(),
  displayName: z.string(),
  iconUrl: z.string().nullable(),
  maintenance: z.boolean(),
  /** Its games are played by the vendor simulator (demo games, real money): the client marks them "Simulated demo". */
  simulated: z.boolean().optional(),
});
export type TVendor = z.infer<typeof ZVendor>;

export const ZGameCategory = z.object({ gameType: z.enum(GAME_TYPES), vendors: z.array(ZVendor) });
export type TGameCategory = z.infer<typeof ZGameCategory>;

export const ZGame = z.object({
  nodeId: z.string(),
  vassalage: z.string(),
  gameCode: z.string(),
  /** 'VASSALAGE' opens the provider's game list popup instead of a game. */
  isGame: z.string(),
  gameType: z.enum(GAME_TYPES),
  gameClassify: z.string().nullable(),
  gameName: z.string(),
  iconUrl: z.string().nullable(),
  maintenance: z.boolean(),
});
export type TGame = z.infer<typeof ZGame>;

/** A winner board / recent-win item. `winAmount` is in minor units (centavos). */
export const ZWinner = z.object({
  id: z.string(),
  iconUrl: z.string().nullable(),
  winAmount: z.number().int().nonnegative(),
  gameName: z.string(),
  customerName: z.string(),
  at: z.string(),
});
export type TWinner = z.infer<typeof ZWinner>;
/**
 * A winner board item (GCSGAME_getRankList): the winner, and `vo` with its winAmount as the spec's
 * board item carries it (section 3: "vo with winAmount"); minor units like every amount of the API,
 * shown with 2 decimals and thousands separators.
 */
export const ZRankItem = ZWinner.extend({ vo: z.object({ winAmount: z.number().int().nonnegative() }) });
export type TRankItem = z.infer<typeof ZRankItem>;

const ZLanguageQ = z.string().max(8).optional();

export const ZVendorQuery = z.object({ merchantCode: z.string().max(32).optional() }).strict();
export const ZHotGamesQuery = z
  .object({
    merchantCode: z.string().max(32).optional(),
    isPlatform: z.coerce.number().int().optional(),
    platform: z.string().max(64).optional(),
    language: ZLanguageQ,
  })
  .strict();
export const ZRankListQuery = z
  .object({
    gameCategory: z.string().max(16).default('ALL'),
    language: ZLanguageQ,
    limitNum: z.coerce.number().int().min(1).max(100).default(20),
  })
  .strict();
/**
 * The game menus, or with `prizeMode` (spec section 7, "game lottery list"; prize modes of section 4) one
 * lottery's: LOTT every lottery vendor's (game type LOTT), ELOTT the e-lotteries, SEA the Southeast Asia
 * lottery (TCG_SEA). ZY names no lottery of this catalogue: it answers an empty menu.
 */
export const ZGameMenusQuery = z.object({
  language: ZLanguageQ,
  pageSize: z.coerce.number().int().min(1).max(50).default(20),
  prizeMode: z.enum(PRIZE_MODES).optional(),
}).strict();
/** The Vietnam lottery's menu (spec section 7, "Lottery"): its games, in catalogue order. */
export const ZLotteryMenuQuery = z.object({ language: ZLanguageQ }).strict();


export const gameCalls = {
  gameVendor: defineCall({
    method: 'GET', path: relayPath('GCSGAME_gameVendor'), auth: false, query: ZVendorQuery,
    value: z.object({ data: z.object({ lanes: z.array(ZGameCategory) }) }),
  }),
  hotGames: defineCall({
    method: 'GET', path: relayPath('GCSGAME_hotGamesV2'), auth: false, query: ZHotGamesQuery, value: z.object({ list: z.array(ZGame) }),
  }),
  rankList: defineCall({
    method: 'GET', path: relayPath('GCSGAME_getRankList'), auth: false, query: ZRankListQuery, value: z.object({ list: z.array(ZRankItem) }),
  }),
  gameMenus: defineCall({
    method: 'GET', path: '/lgw/games/game_menus', auth: false, query: ZGameMenusQuery,
    value: z.object({ menus: z.array(z.object({ gameType: z.enum(GAME_TYPES), games: z.array(ZGame) })) }),
  }),
};

// ---------------------------------------------------------------------------------------------
// Catalogue (issue 5): game list search, vendor sub-categories, favourites, recent games.
// ---------------------------------------------------------------------------------------------

/** The client sends empty strings (and sometimes 'null') for filters it does not use: they count as absent. */
const blank = <T extends z.ZodType>(s: T) => z.preprocess((v) => (v === '' || v === 'null' ? undefined : v), s.optional());

/** A game in a catalogue list: the home/menu game plus its minimum bet (integer minor units, centavos). */
export const ZCatalogueGame = ZGame.extend({
  minBet: z.number().int().nonnegative().nullable(),
});
export type TCatalogueGame = z.infer<typeof ZCatalogueGame>;

export const GAME_LIST_MAX_PAGE_SIZE = 100;

/**
 * The spec's 'game list action' (relay GCSGAME_gameList, token Y). Every filter is optional and an empty
 * string means "not filtered". `gameName` matches case-insensitively anywhere in the name. `minBet` (integer
 * minor units) keeps games that can be played with a bet of that size (their minimum bet is at most minBet).
 * clientType, platform, merchant, minLineNum and language are accepted for compatibility and do not filter.
 */
export const ZGameListQuery = z
  .object({
    clientType: blank(z.coerce.number().int().min(0).max(99)),
    platform: blank(z.string().max(64)),
    merchant: blank(z.string().max(32)),
    gameType: blank(z.enum(GAME_TYPES)),
    vassalage: blank(z.string().max(32)),
    gameClassify: blank(z.enum(RNG_CLASSIFIES)),
    gameName: blank(z.string().trim().max(64)),
    minBet: blank(z.coerce.number().int().min(0).max(1_000_000_000)),
    minLineNum: blank(z.coerce.number().int().min(0).max(10_000)),
    pageNo: blank(z.coerce.number().int().min(1).max(100_000)).transform((v) => v ?? 1),
    pageSize: blank(z.coerce.number().int().min(1).max(GAME_LIST_MAX_PAGE_SIZE)).transform((v) => v ?? 20),
    language: ZLanguageQ,
  })
  .strict();
export const ZGameListValue = z.object({
  games: z.array(ZCatalogueGame),
  pageNo: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int().nonnegative(),
  totalPages: z.number().int().nonnegative(),
});
export type TGameListValue = z.infer<typeof ZGameListValue>;

/** Vendors of a game type with the sub-categories (gameClassify) their games have; BG only when the merchant supports TY. */
export const ZVassGameTypeQuery = z
  .object({
    gameType: blank(z.enum(GAME_TYPES)).transform((v) => v ?? 'RNG'),
    merchant: blank(z.string().max(32)),
    merchantCode: blank(z.string().max(32)),
    language: ZLanguageQ,
  })
  .strict();
export const ZVassGameType = z.object({
  vassalage: z.string(),
  gameType: z.enum(GAME_TYPES),
  displayName: z.string(),
  iconUrl: z.string().nullable(),
  maintenance: z.boolean(),
  /** Games of this vendor and type (lobby entries included). */
  gameCount: z.number().int().nonnegative(),
  /** Sub-categories this vendor has games in, in RNG_CLASSIFIES order. */
  gameClassifies: z.array(z.enum(RNG_CLASSIFIES)),
});
export type TVassGameType = z.infer<typeof ZVassGameType>;
export const ZVassGameTypeValue = z.object({
  gameType: z.enum(GAME_TYPES),
  /** The sub-category tabs to show, in RNG_CLASSIFIES order (BG only when TY is a supported language). */
  gameClassifies: z.array(z.enum(RNG_CLASSIFIES)),
  vendors: z.array(ZVassGameType),
});
export type TVassGameTypeValue = z.infer<typeof ZVassGameTypeValue>;

export const ZFavoriteIdsQuery = z.object({ language: ZLanguageQ }).strict();
export const ZFavoriteIdsValue = z.object({ ids: z.array(z.string()) });

export const ZFavoriteListQuery = z
  .object({
    pageNum: blank(z.coerce.number().int().min(1).max(100_000)).transform((v) => v ?? 1),
    pageSize: blank(z.coerce.number().int().min(1).max(GAME_LIST_MAX_PAGE_SIZE)).transform((v) => v ?? 20),
    language: ZLanguageQ,
  })
  .strict();
/** Spec: favourite list content, pageNum, totalPages (newest favourite first). */
export const ZFavoriteListValue = z.object({
  content: z.array(ZCatalogueGame),
  pageNum: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int().nonnegative(),
  totalPages: z.number().int().nonnegative(),
});
export type TFavoriteListValue = z.infer<typeof ZFavoriteListValue>;

/** Spec favourite payload: nodeId, vendor (the game's vassalage), gameType. */
export const ZAddFavoriteBody = z
  .object({
    nodeId: z.string().min(1).max(128),
    vendor: z.string().min(1).max(32).optional(),
    gameType: z.enum(GAME_TYPES).optional(),
  })
  .strict();
export const ZRemoveFavoriteQuery = z.object({ nodeId: z.string().min(1).max(128) }).strict();
/** The result of a favourite change; `ids` is the member's whole favourite id list after it. */
export const ZFavoriteChangeValue = z.object({ nodeId: z.string(), isFavorite: z.boolean(), ids: z.array(z.string()) });
export type TFavoriteChangeValue = z.infer<typeof ZFavoriteChangeValue>;

export const RECENT_GAMES_MAX = 50;
export const ZRecentGamesQuery = z
  .object({
    limit: blank(z.coerce.number().int().min(1).max(RECENT_GAMES_MAX)).transform((v) => v ?? 20),
    language: ZLanguageQ,
  })
  .strict();
/** Recently launched games, most recent first. */
export const ZRecentGamesValue = z.object({
  list: z.array(ZCatalogueGame.extend({ launchedAt: z.string() })),
});
export type TRecentGamesValue = z.infer<typeof ZRecentGamesValue>;

/**
 * GLS2_roomList (spec section 7, Games): the tables open to join right now, with their live state, for the
 * lobby of a live or card category. The house's own tables (vassalage HOUSE); an outside provider's
 * rooms are its own lobby's, opened by launching its game.
 */
export const ZRoomListQuery = z.object({ gameType: z.enum(['LIVE', 'PVP']).optional() }).strict();
export const ZRoom = z.object({
  nodeId: z.string(),
  gameCode: z.string(),
  gameName: z.string(),
  gameType: z.enum(['LIVE', 'PVP']),
  vassalage: z.string(),
  maintenance: z.boolean(),
  /** The current round (null before the table's first). */
  roundNo: z.number().int().nullable(),
  /** betting: bets or seats are taken until closesAt; result: the round is dealt, the next opens at nextAt. */
  phase: z.enum(['betting', 'result']).nullable(),
  closesAt: z.string().nullable(),
  nextAt: z.string().nullable(),
  /** The server's clock when this was read (count down against it, not the device's). */
  serverNow: z.string(),
  /** Players in the current round (bets placed, seats taken). */
  players: z.number().int().nonnegative(),
  /** Stakes offered, minor units of the merchant's currency (one ante for a card table). */
  stakes: z.array(z.number().int().positive()),
  /** The last results, newest first (baccarat: player, banker, tie); empty for a card table. */
  road: z.array(z.string()),
});
export type TRoom = z.infer<typeof ZRoom>;
export const ZRoomListValue = z.object({ list: z.array(ZRoom) });
export type TRoomListValue = z.infer<typeof ZRoomListValue>;

export const catalogueCalls = {
  roomList: defineCall({
    method: 'GET', path: relayPath('GLS2_roomList'), auth: false, query: ZRoomListQuery, value: ZRoomListValue,
  }),
  /**
   * The catalogue search. The spec marks it Y (token); guests browse the category pages too (issue 12:
   * a guest saw vendor tiles and no games), so the list is public like the home lanes; a token is not needed.
   */
  gameList: defineCall({ method: 'GET', path: relayPath('GCSGAME_gameList'), auth: false, query: ZGameListQuery, value: ZGameListValue }),
  vassGameType: defineCall({
    method: 'GET', path: relayPath('GCSGAME_getVassGameType'), auth: false, query: ZVassGameTypeQuery, value: ZVassGameTypeValue,
  }),
  favoriteIds: defineCall({
    method: 'GET', path: relayPath('MCSFE_getFavoriteGames'), auth: true, trial: true, query: ZFavoriteIdsQuery, value: ZFavoriteIdsValue,
  }),
  favoriteList: defineCall({
    method: 'GET', path: relayPath('MCSFE_getFavoriteGamesList'), auth: true, trial: true, query: ZFavoriteListQuery, value: ZFavoriteListValue,
  }),
  /** Throttled server-side: one favourite change per member per second; more answer 429 TOO_MANY_REQUESTS. */
  addFavorite: defineCall({
    method: 'POST', path: relayPath('MCSFE_addFavoriteGameV2'), auth: true, trial: true, body: ZAddFavoriteBody, value: ZFavoriteChangeValue,
  }),
  removeFavorite: defineCall({
    method: 'DELETE', path: relayPath('MCSFE_removeFavoriteGameV2'), auth: true, trial: true, query: ZRemoveFavoriteQuery, value: ZFavoriteChangeValue,
  }),
  recentGames: defineCall({
    method: 'GET', path: relayPath('GCS_recentGame'), auth: true, trial: true, query: ZRecentGamesQuery, value: ZRecentGamesValue,
  }),
};

/**
 * The Vietnam lottery (spec section 7, "Lottery"): its game menu, and the member's recently opened
 * Vietnam lottery games (newest first). The drawn-number calls of that list (/lgw/vn/numeros/opened/game,
 * /lotto/lgw/games/opened/numero) are not served: the simulated lottery vendors draw per round, with no
 * schedule of draws to publish.
 */
export const ZLotteryMenuValue = z.object({ list: z.array(ZCatalogueGame) });
export const lotteryCalls = {
  vnGameMenu: defineCall({ method: 'GET', path: '/lgw/vn/games/game_menu', auth: false, query: ZLotteryMenuQuery, value: ZLotteryMenuValue }),
  vnRecent: defineCall({ method: 'GET', path: '/lgw/vn/games/game_menu/recent', auth: true, trial: true, query: ZRecentGamesQuery, value: ZRecentGamesValue }),
};
