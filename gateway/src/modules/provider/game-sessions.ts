import type { Queryable } from '../../db/db.ts';

/**
 * Ends game sessions with the portal session that launched them: their unexchanged launch codes
 * are deleted and their vendor game tokens revoked, so the vendor's authenticate, balance and bet
 * calls with them are refused (GAME_TOKEN_INVALID). Wins and rollbacks of bets already placed
 * still settle (vendor_money, migration 019). Called by the session store on every revocation
 * (logout, password change, operator disable) and by anything else that ends a member's play,
 * such as an exclusion: `{ memberId }` for all of a member's games, `{ sessionHash }` for the games
 * launched from one portal session.
 */
export async function revokeGameSessions(q: Queryable, who: { memberId: number } | { sessionHash: Buffer }): Promise<void> {
  const [column, value] = 'memberId' in who ? ['member_id', who.memberId] as const : ['session_hash', who.sessionHash] as const;
  // Two statements, in this order: the DELETE waits for a trade of one of these codes in flight
  // (authenticate holds its row), and the UPDATE, with a snapshot taken after, sees the game session
  // that trade opened. In one statement the UPDATE's snapshot could predate it and leave it live.
  await q.query(`DELETE FROM game_launches WHERE ${column} = $1`, [value]);
  await q.query(`UPDATE game_sessions SET revoked_at = now() WHERE ${column} = $1 AND revoked_at IS NULL`, [value]);
}
