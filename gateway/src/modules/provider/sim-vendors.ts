import type { Db } from '../../db/db.ts';
import type { MerchantDirectory } from '../merchants/merchant-directory.ts';
import { SIMULATED_GAME_TYPES, simVendorSecret } from '../../vendor-sim/secrets.ts';

/**
 * Connects the catalogue's slot, fish, live and PVP vendors to the vendor simulator: one
 * vendor_accounts row per (merchant, vendor) with the simulator's launch URL and the vendor's own
 * secret (derived from VENDOR_SIM_SECRET). A vendor already connected for real (a row not marked
 * simulated) is never touched. Without the simulator configured, rows it made earlier are switched
 * off, so those games say plainly that the provider is not connected.
 */
export async function ensureSimulatedVendors(db: Db, merchants: MerchantDirectory, sim: { url: string; secret: string } | null): Promise<number> {
  if (!sim) {
    await db.query('UPDATE vendor_accounts SET active = false WHERE simulated AND active');
    return 0;
  }
  const launchUrl = `${sim.url.replace(/\/$/, '')}/play`;
  let n = 0;
  for (const m of await merchants.all()) {
    const vendors = (await db.query<{ vassalage: string }>(
      `SELECT DISTINCT vassalage FROM vendors WHERE merchant_code = $1 AND vassalage <> 'HOUSE' AND game_type = ANY($2::text[]) ORDER BY vassalage`,
      [m.code, [...SIMULATED_GAME_TYPES]],
    )).rows;
    for (const v of vendors) {
      const r = await db.query(
        `INSERT INTO vendor_accounts (merchant_code, vendor, secret, launch_url, active, simulated, free_play) VALUES ($1, $2, $3, $4, true, true, true)
         ON CONFLICT (merchant_code, vendor) DO UPDATE SET secret = EXCLUDED.secret, launch_url = EXCLUDED.launch_url, active = true
         WHERE vendor_accounts.simulated`,
        [m.code, v.vassalage, simVendorSecret(sim.secret, m.code, v.vassalage), launchUrl],
      );
      n += r.rowCount ?? 0;
    }
  }
  return n;
}
