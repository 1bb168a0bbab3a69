import type { Queryable } from '../../db/db.ts';

/**
 * The catalogue's icon for winner-board rows that have none (a game not found where the win was posted,
 * or a win posted by name only), keyed by the name the row carries: by game name first, then by game
 * code (a vendor win whose game was unknown is stored under its code). One look-up for the few names.
 * Used alike when the board is read (rankList) and when a win is posted (the row and its winner.posted
 * event), so a live arrival shows the same icon as the list after a reload.
 */
export async function catalogueIcons(q: Queryable, merchant: string, names: readonly string[]): Promise<Map<string, string>> {
  const missing = [...new Set(names)];
  const icons = new Map<string, string>();
  if (missing.length === 0) return icons;
  const g = await q.query<{ game_name: string; game_code: string; icon_url: string }>(
    `SELECT game_name, game_code, icon_url FROM games
     WHERE merchant_code = $1 AND icon_url IS NOT NULL AND is_game <> 'VASSALAGE' AND (game_name = ANY($2) OR game_code = ANY($2))
     ORDER BY id`,
    [merchant, missing],
  );
  for (const x of g.rows) if (missing.includes(x.game_name) && !icons.has(x.game_name)) icons.set(x.game_name, x.icon_url);
  for (const x of g.rows) if (missing.includes(x.game_code) && !icons.has(x.game_code)) icons.set(x.game_code, x.icon_url);
  return icons;
}

/** A posted win's icon: its own, else the catalogue's for the game it names, else null. */
export async function winnerIcon(q: Queryable, merchant: string, gameName: string, iconUrl: string | null): Promise<string | null> {
  return iconUrl ?? (await catalogueIcons(q, merchant, [gameName])).get(gameName) ?? null;
}
