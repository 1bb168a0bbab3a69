import type { TEventEnvelope } from '@portal/contracts/events/events';

export type BusHandler = (events: TEventEnvelope[]) => void;

/** Carries committed events from the relay to every gateway node. */
export type EventBus = {
  readonly kind: 'memory' | 'redis';
  publish(events: TEventEnvelope[]): Promise<void>;
  subscribe(handler: BusHandler): () => void;
  start(): Promise<void>;
  close(): Promise<void>;
};

export function createMemoryBus(): EventBus {
  const handlers = new Set<BusHandler>();
  return {
    kind: 'memory',
    async publish(events) {
      for (const h of handlers) h(events);
    },
    subscribe(h) {
      handlers.add(h);
      return () => handlers.delete(h);
    },
    async start() {},
    async close() {
      handlers.clear();
    },
  };
}
