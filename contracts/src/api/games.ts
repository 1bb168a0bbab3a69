import { z } from 'zod';
import { defineCall, relayPath } from './envelope.ts';
import { GAME_TYPES } from '../domain/constants.ts';

export const ZVendor = z.object({
  vassalage: z.string(),
  gameType: z.enum(GAME_TYPES),
  gameCategory: z.string(),
  displayName: z.string(),
  iconUrl: z.string().nullable(),
  maintenance: z.boolean(),
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
export const ZGameMenusQuery = z.object({ language: ZLanguageQ, pageSize: z.coerce.number().int().min(1).max(50).default(20) }).strict();

export const gameCalls = {
  gameVendor: defineCall({
    method: 'GET', path: relayPath('GCSGAME_gameVendor'), auth: false, query: ZVendorQuery,
    value: z.object({ data: z.object({ lanes: z.array(ZGameCategory) }) }),
  }),
  hotGames: defineCall({
    method: 'GET', path: relayPath('GCSGAME_hotGamesV2'), auth: false, query: ZHotGamesQuery, value: z.object({ list: z.array(ZGame) }),
  }),
  rankList: defineCall({
    method: 'GET', path: relayPath('GCSGAME_getRankList'), auth: false, query: ZRankListQuery, value: z.object({ list: z.array(ZWinner) }),
  }),
  gameMenus: defineCall({
    method: 'GET', path: '/lgw/games/game_menus', auth: false, query: ZGameMenusQuery,
    value: z.object({ menus: z.array(z.object({ gameType: z.enum(GAME_TYPES), games: z.array(ZGame) })) }),
  }),
};
