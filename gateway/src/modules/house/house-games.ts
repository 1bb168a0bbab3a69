import { cacheAudience } from '@portal/contracts/events/events';
import type { Db } from '../../db/db.ts';
import { emitEvent } from '../../bus/outbox.ts';
import type { MerchantDirectory } from '../merchants/merchant-directory.ts';

/**
 * The built-in games, registered in every merchant's catalogue at startup (vassalage HOUSE). The slot
 * is "Lucky Peso Reels" where the money is pesos, "Lucky Reels" elsewhere (a dong site showed the peso
 * brand's name): houseGameName.
 */
export const HOUSE_GAMES = [
  { code: 'SLOT1', nodeId: 'HOUSE-SLOT1', gameType: 'RNG', classify: null, name: 'Lucky Peso Reels', nameElsewhere: 'Lucky Reels' },
  { code: 'BACC1', nodeId: 'HOUSE-BACC1', gameType: 'LIVE', classify: null, name: 'Speed Baccarat' },
  { code: 'FISH1', nodeId: 'HOUSE-FISH1', gameType: 'FISH', classify: null, name: 'Lucky Fishing' },
  { code: 'PVP1', nodeId: 'HOUSE-PVP1', gameType: 'PVP', classify: null, name: 'Lucky 9 Duel' },
] as const;

/** A house game's name in a merchant's catalogue (its currency picks the slot's). */
export function houseGameName(g: (typeof HOUSE_GAMES)[number], currency: string): string {
  return 'nameElsewhere' in g && currency !== 'PHP' ? g.nameElsewhere : g.name;
}

const CATEGORY: Record<string, string> = { RNG: 'SLOT', LIVE: 'LIVE', FISH: 'FISH', PVP: 'PVP' };
const VENDOR_NAME: Record<string, string> = { RNG: 'Lucky Slots', LIVE: 'Lucky Live', FISH: 'Lucky Arcade', PVP: 'Lucky Cards' };

/**
 * Upsert the house games (and their vendor rows when missing). Existing rows are left as they
 * are (an operator may rename a game or put it in maintenance), and no HOUSE row is ever deleted.
 */
export async function ensureHouseGames(db: Db, merchants: MerchantDirectory) {
  for (const m of await merchants.all()) {
    let added = 0;
    for (const g of HOUSE_GAMES) {
      const name = houseGameName(g, m.currency);
      added += (await db.query(
        `INSERT INTO vendors (merchant_code, vassalage, game_type, game_category, display_name, icon_url) VALUES ($1, 'HOUSE', $2, $3, $4, $5)
         ON CONFLICT (merchant_code, vassalage, game_type) DO NOTHING`,
        [m.code, g.gameType, CATEGORY[g.gameType], VENDOR_NAME[g.gameType], `/img/vendor/HOUSE.svg?n=${encodeURIComponent(VENDOR_NAME[g.gameType]!)}`],
      )).rowCount;
      added += (await db.query(
        // The playable house games lead the hot list (hot_rank 0) on a fresh catalogue.
        `INSERT INTO games (merchant_code, node_id, vassalage, game_code, is_game, game_type, game_classify, game_name, icon_url, sort, hot_rank)
         VALUES ($1, $2, 'HOUSE', $3, 'GAME', $4, $5, $6, $7, -10, 0)
         ON CONFLICT DO NOTHING`,
        [m.code, g.nodeId, g.code, g.gameType, g.classify, name, `/img/game/HOUSE/${g.code}.svg?n=${encodeURIComponent(name)}`],
      )).rowCount;
    }
    // Other running nodes drop their cached vendors, hot games and menus.
    if (added > 0) await db.single((tx) => emitEvent(tx, m.code, cacheAudience(m.code), 'content.changed', { scopes: ['games'] }));
  }
}
