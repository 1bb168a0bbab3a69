import type { Queryable } from '../../db/db.ts';

/**
 * Marketing suppression (responsible gaming): a member is not marketed to (no promotions, red
 * envelopes, or messages of a marketing kind) while an exclusion of any kind is in force
 * (self-exclusion, cooling-off, family, operator, restricted person), nor when the account is not
 * active. Two forms of one rule, for the modules that market:
 *
 * - `isMarketable(db, memberId)`: one member (before granting a bonus, sending one message);
 * - `marketableSql('m.id')`: a SQL condition for bulk queries (campaign audiences, envelope rains),
 *   so the exclusion is applied in the same query, never filtered afterwards in JavaScript.
 *   The argument is a trusted column expression of the query, never user input.
 *
 * The view `rg_marketable_members` (migration 048) holds the same rule for SQL written elsewhere:
 * `JOIN rg_marketable_members mk ON mk.member_id = m.id`.
 */
export const marketableSql = (memberIdColumn: string) =>
  `(EXISTS (SELECT 1 FROM members mkm WHERE mkm.id = ${memberIdColumn} AND mkm.status = 'active')
    AND NOT EXISTS (SELECT 1 FROM rg_exclusions mkx WHERE mkx.member_id = ${memberIdColumn} AND mkx.ended_at IS NULL
                      AND mkx.starts_at <= now() AND (mkx.ends_at IS NULL OR mkx.ends_at > now())))`;

/** Whether marketing may reach this member now (see marketableSql). */
export async function isMarketable(db: Queryable, memberId: number): Promise<boolean> {
  const r = await db.query<{ ok: boolean }>(`SELECT ${marketableSql('$1::bigint')} AS ok`, [memberId]);
  return r.rows[0]?.ok === true;
}
