import { createWriteStream } from 'node:fs';
import { io } from 'socket.io-client';
import { parseEvent } from '@portal/contracts/events/events';
import { parseArgs } from './cli-args.ts';

/**
 * `npm run record -- --out file.jsonl [--url http://localhost:8080] [--seconds N] [--count N]`
 * Captures the live event stream (every audience) as JSON lines of envelopes, from the gateway's
 * dev tap, which exists only outside production mode.
 */
const { flags } = parseArgs(process.argv.slice(2));
const out = flags.get('out');
if (!out) {
  console.error('usage: npm run record -- --out file.jsonl [--url http://localhost:8080] [--seconds N] [--count N]');
  process.exit(2);
}
const url = flags.get('url') ?? `http://localhost:${process.env.PORT ?? 8080}`;
const seconds = Number(flags.get('seconds') ?? 0);
const maxCount = Number(flags.get('count') ?? 0);
const file = createWriteStream(out, { flags: 'w' });
let count = 0;

const socket = io(`${url}/dev-tap`, { transports: ['websocket'], reconnectionDelayMax: 2000 });
socket.on('connect', () => console.error(`recording from ${url} into ${out} (Ctrl-C to stop)`));
socket.on('connect_error', (err) => console.error(`cannot reach the dev tap at ${url}: ${err.message} (production mode has none; it answers only clients on the gateway's own machine)`));
socket.on('event', (raw: unknown) => {
  const env = parseEvent(raw);
  if (!env) return;
  file.write(`${JSON.stringify(env)}\n`);
  count++;
  if (maxCount && count >= maxCount) stop();
});

function stop() {
  socket.close();
  file.end(() => {
    console.error(`recorded ${count} events`);
    process.exit(0);
  });
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
if (seconds > 0) setTimeout(stop, seconds * 1000);
