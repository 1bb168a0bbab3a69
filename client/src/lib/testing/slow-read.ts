import { QueryObserver, type QueryClient, type QueryKey } from '@tanstack/react-query';

/**
 * For tests of reads racing writes and events: a read that takes `ms` and answers what the "server"
 * held when the read was SENT, not when it lands (as an HTTP GET answered before a commit does).
 */
export function slowRead<T>(initial: T, ms = 30) {
  let server = initial;
  let calls = 0;
  return {
    queryFn: () => {
      calls++;
      const snapshot = server;
      return new Promise<T>((resolve) => setTimeout(() => resolve(snapshot), ms));
    },
    set: (v: T) => void (server = v),
    get: () => server,
    calls: () => calls,
  };
}

/** `key` read by `queryFn` as a mounted component reads it; the returned stop also clears the client. */
export function observe<T>(qc: QueryClient, key: QueryKey, queryFn: () => Promise<T>, listener: (r: { data: T | undefined }) => void = () => undefined): () => void {
  const stop = new QueryObserver(qc, { queryKey: key, queryFn }).subscribe(listener);
  return () => {
    stop();
    qc.clear();
  };
}

/** Until no read is in flight, seen twice 10 ms apart (a read that another one's landing starts counts). */
export async function settled(qc: QueryClient): Promise<void> {
  for (let quiet = 0, i = 0; quiet < 2 && i < 200; i++) {
    await new Promise((r) => setTimeout(r, 10));
    quiet = qc.isFetching() === 0 ? quiet + 1 : 0;
  }
}
