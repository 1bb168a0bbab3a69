import { parseArgs } from './cli-args.ts';
import { readStream, replay } from './replay.ts';

/**
 * `npm run replay -- file.jsonl [--speed N] [--user ID] [--url http://localhost:8080] [--merchant CODE]`
 * Pushes a recorded stream through the same outbox -> bus -> Socket.IO path as live events.
 * --speed 2 plays twice as fast, --speed 0 as fast as possible; --user re-targets user events.
 */
const { flags, positional } = parseArgs(process.argv.slice(2));
const file = positional[0];
if (!file) {
  console.error('usage: npm run replay -- file.jsonl [--speed N] [--user ID] [--url http://localhost:8080] [--merchant CODE]');
  process.exit(2);
}
const url = flags.get('url') ?? `http://localhost:${process.env.PORT ?? 8080}`;
const speed = Number(flags.get('speed') ?? 1);
const user = flags.get('user');
const merchant = flags.get('merchant');
if (!Number.isFinite(speed) || speed < 0) {
  console.error('--speed must be a number >= 0');
  process.exit(2);
}
try {
  const events = await readStream(file);
  const sent = await replay(url, events, {
    speed,
    ...(user ? { userId: Number(user) } : {}),
    ...(merchant ? { merchant } : {}),
    log: (s) => console.error(s),
  });
  console.error(`done: ${sent} events`);
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
