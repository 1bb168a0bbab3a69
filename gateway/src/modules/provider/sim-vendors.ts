import { cacheAudience } from '@portal/contracts/events/events';
import type { Db } from '../../db/db.ts';
import { emitEvent } from '../../bus/outbox.ts';
import type { MerchantDirectory } from '../merchants/merchant-directory.ts';
import { SIMULATED_GAME_TYPES, simVendorSecret } from '../../vendor-sim/secrets.ts';

/** Players are shown only connected providers' games: other nodes drop what they cached of the catalogue. */
async function announce(db: Db, merchantCode: string) {
  await db.single((tx) => emitEvent(tx, merchantCode, cacheAudience(merchantCode), 'content.changed', { scopes: ['games'] }));
}

/**
 * Connects the catalogue's vendors (of SIMULATED_GAME_TYPES) to the vendor simulator: one
 * vendor_accounts row per (merchant, vendor) with the simulator's launch URL and the vendor's own
 * secret (derived from VENDOR_SIM_SECRET). A vendor connected for real, or connected or disconnected
 * by an operator on /ops/providers (a row not marked simulated), is never touched. Without the
 * simulator configured, rows it made earlier are switched off, so those games leave the lobby.
 * Returns the number of vendors connected to the simulator.
 */
export async function ensureSimulatedVendors(db: Db, merchants: MerchantDirectory, sim: { url: string; secret: string } | null): Promise<number> {
  if (!sim) {
    const off = await db.query<{ merchant_code: string }>('UPDATE vendor_accounts SET active = false WHERE simulated AND active RETURNING merchant_code');
    for (const code of new Set(off.rows.map((r) => r.merchant_code))) await announce(db, code);
    return 0;
  }
  const launchUrl = `${sim.url.replace(/\/$/, '')}/play`;
  let n = 0;
  for (const m of await merchants.all()) {
    const vendors = (await db.query<{ vassalage: string }>(
      `SELECT DISTINCT vassalage FROM vendors WHERE merchant_code = $1 AND vassalage <> 'HOUSE' AND game_type = ANY($2::text[]) ORDER BY vassalage`,
      [m.code, [...SIMULATED_GAME_TYPES]],
    )).rows;
    let changed = 0;
    for (const v of vendors) {
      const r = await db.query<{ active: boolean }>(
        `INSERT INTO vendor_accounts (merchant_code, vendor, secret, launch_url, active, simulated, free_play) VALUES ($1, $2, $3, $4, true, true, true)
         ON CONFLICT (merchant_code, vendor) DO UPDATE SET secret = EXCLUDED.secret, launch_url = EXCLUDED.launch_url, active = true
         WHERE vendor_accounts.simulated
           AND (vendor_accounts.secret, vendor_accounts.launch_url, vendor_accounts.active) IS DISTINCT FROM (EXCLUDED.secret, EXCLUDED.launch_url, true)
         RETURNING active`,
        [m.code, v.vassalage, simVendorSecret(sim.secret, m.code, v.vassalage), launchUrl],
      );
      changed += r.rowCount ?? 0;
    }
    n += (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM vendor_accounts WHERE merchant_code = $1 AND simulated AND active', [m.code])).rows[0]!.n;
    if (changed > 0) await announce(db, m.code);
  }
  return n;
}
