import { createHmac } from 'node:crypto';

/** The catalogue's game types the simulator plays: every type of the catalogue but the house's own games. */
export const SIMULATED_GAME_TYPES = ['RNG', 'FISH', 'LIVE', 'PVP', 'LOTT', 'ELOTT', 'SPORTS', 'ESPORTS', 'COCKFIGHT'] as const;
export type SimGameType = (typeof SIMULATED_GAME_TYPES)[number];

/**
 * Each simulated vendor's own signing secret, derived from the simulator's master secret
 * (VENDOR_SIM_SECRET, shared by the portal and the simulator process only): one vendor's secret
 * does not sign for another vendor or another merchant.
 */
export function simVendorSecret(master: string, merchantCode: string, vendor: string): string {
  return createHmac('sha256', master).update(`vendor-sim:${merchantCode}:${vendor}`).digest('hex');
}
