import { createClient } from 'redis';
import { parseEvent, type TEventEnvelope } from '@portal/contracts/events/events';
import type { BusHandler, EventBus } from './bus.ts';

type RedisClient = ReturnType<typeof createClient>;
type Logger = { warn(obj: unknown, msg?: string): void };

/**
 * Redis Streams bus: the relay XADDs committed events; every node reads the stream from where it
 * joined with a blocking XREAD on its own connection, so every node sees every event in order.
 */
export function createRedisBus(url: string, stream: string, log: Logger, maxLen = 100_000): EventBus {
  const writer: RedisClient = createClient({ url });
  const reader: RedisClient = createClient({ url });
  writer.on('error', (err) => log.warn({ err }, 'redis bus writer error'));
  reader.on('error', (err) => log.warn({ err }, 'redis bus reader error'));
  const handlers = new Set<BusHandler>();
  let running = false;
  let lastId = '$';
  let loop: Promise<void> | null = null;

  async function readLoop() {
    while (running) {
      try {
        const res = await reader.xRead({ key: stream, id: lastId }, { BLOCK: 1000, COUNT: 1000 });
        if (!res || !Array.isArray(res)) continue;
        for (const s of res as Array<{ messages: Array<{ id: string; message: Record<string, string> }> }>) {
          const batch: TEventEnvelope[] = [];
          for (const m of s.messages) {
            lastId = m.id;
            const raw = m.message.e;
            if (!raw) continue;
            try {
              const env = parseEvent(JSON.parse(raw));
              if (env) batch.push(env);
            } catch {
              // a malformed entry is skipped; the outbox still holds the truth for catch-up
            }
          }
          if (batch.length) for (const h of handlers) h(batch);
        }
      } catch (err) {
        if (!running) break;
        log.warn({ err }, 'redis bus read failed; retrying');
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }

  return {
    kind: 'redis',
    async publish(events) {
      if (!events.length) return;
      const multi = writer.multi();
      for (const e of events) {
        multi.xAdd(stream, '*', { e: JSON.stringify(e) }, { TRIM: { strategy: 'MAXLEN', strategyModifier: '~', threshold: maxLen } });
      }
      await multi.exec();
    },
    subscribe(h) {
      handlers.add(h);
      return () => handlers.delete(h);
    },
    isReady: () => running && writer.isReady && reader.isReady,
    async start() {
      await writer.connect();
      await reader.connect();
      // Start from the stream's current end: earlier events reach clients through outbox catch-up.
      const info = await writer.xRevRange(stream, '+', '-', { COUNT: 1 });
      lastId = info?.[0]?.id ?? '0-0';
      running = true;
      loop = readLoop();
    },
    async close() {
      running = false;
      handlers.clear();
      try {
        reader.destroy();
      } catch {
        /* already closed */
      }
      await loop?.catch(() => undefined);
      try {
        await writer.close();
      } catch {
        writer.destroy();
      }
    },
  };
}

export function createRedisClient(url: string): RedisClient {
  return createClient({ url });
}
