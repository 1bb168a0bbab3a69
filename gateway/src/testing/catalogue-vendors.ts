import { ensureSimulatedVendors } from '../modules/provider/sim-vendors.ts';
import type { TestPortal } from './test-portal.ts';

/** A simulator address nothing answers on (the discard port): these tests list games, they do not play them. */
const NO_SIMULATOR = { url: 'http://127.0.0.1:9', secret: 'catalogue-tests-'.repeat(3) };

/**
 * Connects the demo catalogue's providers as `npm start` does (to the vendor simulator), so the
 * catalogue calls list their games: players are shown only games of connected providers, and a
 * test portal starts without the simulator. Announced like any connection change (caches dropped).
 */
export async function connectCatalogueVendors(t: TestPortal): Promise<void> {
  await ensureSimulatedVendors(t.portal.db, t.portal.merchants, NO_SIMULATOR);
}
