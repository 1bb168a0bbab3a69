import { createContext, useContext, useEffect, useRef, useSyncExternalStore } from 'react';
import type { EventType, TEventEnvelope } from '@portal/contracts/events/events';
import type { RealtimeClient, RealtimeSnapshot } from './realtime-client';

export const RealtimeContext = createContext<RealtimeClient | null>(null);

export function useRealtimeClient(): RealtimeClient | null {
  return useContext(RealtimeContext);
}

/** Subscribe to one event type; the latest handler is used without resubscribing. */
export function useRealtimeEvent<T extends EventType>(type: T, handler: (env: TEventEnvelope<T>) => void): void {
  const client = useRealtimeClient();
  const ref = useRef(handler);
  useEffect(() => {
    ref.current = handler;
  });
  useEffect(() => {
    if (!client) return;
    return client.on(type, (env) => ref.current(env));
  }, [client, type]);
}

const OFFLINE: RealtimeSnapshot = { state: 'connecting', audiences: [] };
const noopSubscribe = () => () => {};

export function useRealtimeConnection(): RealtimeSnapshot {
  const client = useRealtimeClient();
  return useSyncExternalStore(
    client ? client.subscribe : noopSubscribe,
    client ? client.getSnapshot : () => OFFLINE,
    () => OFFLINE,
  );
}
