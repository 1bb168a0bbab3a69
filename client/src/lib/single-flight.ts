import { useRef, useState } from 'react';
import { ErrorCode } from '@portal/contracts/api/errors';
import { isApiError } from './api';

/*
 * One write per button at a time (promotions, the reward centre, missions and red envelopes). A quick
 * double tap fired a grab, join or claim twice: the button's `disabled={isPending}` comes only with the
 * next render, and Preact renders later than the second tap. The second request answered 409 and, as react-query's mutation state is the LAST call's,
 * its "already done" replaced the first call's success (the money was paid, the page said it was not).
 */

/** The codes a repeat of a write that went through is answered with (409). */
const DUPLICATE = new Set<string>([ErrorCode.CONFLICT, ErrorCode.ENVELOPE_ALREADY_GRABBED]);
export const isDuplicateError = (e: unknown): boolean => isApiError(e) && DUPLICATE.has(e.code);

/**
 * Keys with a request out. `run` sends at once (the key is taken synchronously, before any render)
 * unless a request of that key is out: then it sends nothing and answers null. The key is free again
 * when the request settles (a mutation whose onSettled returns the refetch settles after it, so the
 * button is gone or disabled by then).
 */
export function createSingleFlight() {
  const out = new Set<string>();
  return {
    isOut: (key: string) => out.has(key),
    run<T>(key: string, send: () => Promise<T>): Promise<T> | null {
      if (out.has(key)) return null;
      out.add(key);
      let sent: Promise<T>;
      try {
        sent = send();
      } catch (e) {
        out.delete(key);
        throw e;
      }
      return sent.finally(() => out.delete(key));
    },
  };
}

/**
 * The error to show for the call of `key`: none when that key already succeeded and the error only
 * says it was done already (a duplicate from another tab, or one sent before this guard).
 */
export function shownError<E>(error: E | null | undefined, key: string | null, succeeded: ReadonlyMap<string, unknown>): E | null {
  if (error == null) return null;
  return key !== null && succeeded.has(key) && isDuplicateError(error) ? null : error;
}

/**
 * A component's single-flight guard plus the successes it saw (a success stays shown whatever the
 * mutation's state says later). `run(key, send)`: `send` is the mutation's mutateAsync call.
 */
export function useSingleFlight<T = unknown>() {
  const flight = useRef<ReturnType<typeof createSingleFlight> | null>(null);
  flight.current ??= createSingleFlight();
  const guard = flight.current;
  const [succeeded, setSucceeded] = useState<ReadonlyMap<string, T>>(() => new Map());
  return {
    succeeded,
    /** Sends unless a request of `key` is out; true when it sent. */
    run(key: string, send: () => Promise<T>): boolean {
      const sent = guard.run(key, send);
      if (sent === null) return false;
      // The error itself is in the mutation's state, shown by the component.
      sent.then((data) => setSucceeded((m) => new Map(m).set(key, data)), () => undefined);
      return true;
    },
    /** The mutation's error unless it only repeats that `key` (the call it belongs to) was done. */
    error: <E>(error: E | null | undefined, key: string | null) => shownError(error, key, succeeded),
  };
}
