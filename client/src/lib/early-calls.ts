/**
 * Reads a page needs first, started by main.tsx before React renders (the home page's announcements
 * and hot games, once the session is restored), and used by the query that makes the same call:
 * answered before the page's first render, the query starts with the answer (`earlyAnswer` as its
 * initialData: the first commit paints it, no fetch); still in flight, the query's first fetch adopts
 * it (`takeEarlyCall` in its queryFn). Without this the calls went out only after the page's chunks had
 * loaded and its first render had committed, and painted a render later.
 * A call nobody uses (the language changed before the page rendered) stays unused: two at most.
 */
type Early = { promise: Promise<unknown>; answer?: { value: unknown; at: number } };
const early = new Map<string, Early>();
/** When each answer used as initialData arrived (the query's initialDataUpdatedAt). */
const answeredAt = new Map<string, number>();

export function startEarlyCall(key: string, run: () => Promise<unknown>): void {
  const e: Early = { promise: run() };
  // A failure is the adopting query's to report (it retries as its own fetch would).
  e.promise.then((value) => (e.answer = { value, at: Date.now() }), () => undefined);
  early.set(key, e);
}

/** The call started for `key`, once; undefined when none was (the query makes its own). */
export function takeEarlyCall<T>(key: string): Promise<T> | undefined {
  const e = early.get(key);
  early.delete(key);
  return e?.promise as Promise<T> | undefined;
}

/** The answer of the call started for `key` if it has arrived, once (then the query holds it); else undefined. */
export function earlyAnswer<T>(key: string): T | undefined {
  const a = early.get(key)?.answer;
  if (!a) return undefined;
  early.delete(key);
  answeredAt.set(key, a.at);
  return a.value as T;
}

/** When the answer `earlyAnswer` gave for `key` arrived. */
export function earlyAnswerAt(key: string): number | undefined {
  return answeredAt.get(key);
}

/**
 * The query options that use the call started for `key`: its answer as initialData (with its time),
 * else its promise as the first fetch, else `fetch` itself.
 */
export function withEarlyCall<T>(key: string, fetch: (signal: AbortSignal) => Promise<T>) {
  return {
    queryFn: ({ signal }: { signal: AbortSignal }) => takeEarlyCall<T>(key) ?? fetch(signal),
    initialData: () => earlyAnswer<T>(key),
    initialDataUpdatedAt: () => earlyAnswerAt(key),
  };
}
