import { createSimServer } from './server.ts';

/**
 * The vendor simulator as its own process (started by `npm start` in development and by the e2e
 * harness): VENDOR_SIM_PORT, VENDOR_SIM_SECRET (the master secret the portal derives each simulated
 * vendor's secret from), PORTAL_WALLET_URL (where the portal's vendor API is), PORTAL_URL (the portal's
 * public origin: the page's way back, and the only origin that may frame it).
 */
const secret = process.env.VENDOR_SIM_SECRET ?? '';
const walletUrl = process.env.PORTAL_WALLET_URL ?? '';
if (secret.length < 32 || !walletUrl) {
  console.error('vendor-sim: not starting. Set VENDOR_SIM_SECRET (at least 32 characters) and PORTAL_WALLET_URL.');
  process.exit(1);
}
if (process.env.NODE_ENV === 'production' && process.env.VENDOR_SIM_IN_PRODUCTION !== '1') {
  console.error('vendor-sim: not starting in production without VENDOR_SIM_IN_PRODUCTION=1: it plays the part of the game vendors with demo games.');
  process.exit(1);
}
const sim = createSimServer({ walletUrl, masterSecret: secret, portalUrl: process.env.PORTAL_URL || undefined, log: { warn: (o, m) => console.warn(m, o) } });
const port = await sim.listen(Number(process.env.VENDOR_SIM_PORT ?? 8090), process.env.VENDOR_SIM_HOST ?? '127.0.0.1');
console.log(`vendor-sim listening on http://127.0.0.1:${port}`);
const stop = () => void sim.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
