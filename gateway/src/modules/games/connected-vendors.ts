/** The built-in house provider: always connected (its games are the portal's own). */
export const HOUSE_VENDOR_CODE = 'HOUSE';

/**
 * SQL condition: the vendor in `column` is connected for the merchant in `merchantParam` (`$1`),
 * i.e. it is the house provider or has an active `vendor_accounts` row. Players are shown a game
 * (lists, search, hot games, menus, vendor lanes and counts) only when this holds: a game they
 * could not open is not offered. The subquery does not depend on the row, so it is evaluated once
 * per statement (a hashed set of a few dozen codes) whatever the number of games.
 */
export function connectedVendorSql(column: string, merchantParam: string): string {
  return `(${column} = '${HOUSE_VENDOR_CODE}' OR ${column} IN (SELECT va.vendor FROM vendor_accounts va WHERE va.merchant_code = ${merchantParam} AND va.active))`;
}

/**
 * SQL expression (named `maintenance`): the game of alias `alias` is in maintenance, by its own flag or
 * by its provider's (vendors.maintenance, set from /ops/games). Lists, hot games and menus then show
 * what a launch answers (GAME_MAINTENANCE for either). Like connectedVendorSql, the subquery does not
 * depend on the row: one hashed set per statement.
 */
export function gameMaintenanceSql(alias: string, merchantParam: string): string {
  return `(${alias}.maintenance OR (${alias}.vassalage, ${alias}.game_type) IN (SELECT vm.vassalage, vm.game_type FROM vendors vm WHERE vm.merchant_code = ${merchantParam} AND vm.maintenance)) AS maintenance`;
}
