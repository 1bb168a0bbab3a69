import type { TEventEnvelope } from '@portal/contracts/events/events';

export type BusHandler = (events: TEventEnvelope[]) => void;

/** Carries committed events from the relay to every gateway node. */
export type EventBus = {
  readonly kind: 'memory' | 'redis';
  publish(events: TEventEnvelope[]): Promise<void>;
  subscribe(handler: BusHandler): () => void;
  start(): Promise<void>;
  close(): Promise<void>;
  /** Connected and reading (readiness, GET /readyz). */
  isReady?(): boolean;
};

export function createMemoryBus(): EventBus {
  const handlers = new Set<BusHandler>();
  let open = false;
  return {
    kind: 'memory',
    async publish(events) {
      for (const h of handlers) h(events);
    },
    subscribe(h) {
      handlers.add(h);
      return () => handlers.delete(h);
    },
    async start() {
      open = true;
    },
    async close() {
      open = false;
      handlers.clear();
    },
    isReady: () => open,
  };
}
