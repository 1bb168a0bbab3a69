import { loadConfig } from './app/config.ts';
import { createPortal } from './app/create-app.ts';

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (err) {
  // A refused setting (invalid value, SEED=demo in production, ...) is a sentence for the operator, not a stack.
  console.error(`portal: not starting. ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
const portal = await createPortal(config);
const port = await portal.listen();
portal.log.info({ port, db: portal.db.kind, bus: portal.bus.kind }, `portal listening on http://localhost:${port}`);

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  portal.log.info({ signal }, 'shutting down');
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  await portal.stop();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
