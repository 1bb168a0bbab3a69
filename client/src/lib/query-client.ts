import { QueryClient, type InvalidateOptions, type InvalidateQueryFilters, type Query } from '@tanstack/react-query';
import { isApiError } from './api';

/**
 * react-query's invalidateQueries restarts a fetch in flight only when its query already has data: a
 * FIRST fetch still running is kept (Query.fetch hands back its promise), and it may have been sent
 * before the write that invalidated it. Its answer would then stand and nothing would read it again
 * (seen in CI: an RG save made while the events list's first GET was on its way left the list without
 * it). So here an invalidation also cancels the first fetches in flight that it matches (they go back to
 * pending) and reads them again (invalidateKeepingFirstReads, for the socket's first hello, lets them
 * land and reads them once more).
 */
export class PortalQueryClient extends QueryClient {
  override invalidateQueries(filters: InvalidateQueryFilters = {}, options: InvalidateOptions = {}): Promise<void> {
    const refetch = filters.refetchType ?? 'active';
    // refetchType 'none': nothing is read now, so nothing in flight is cancelled either
    const type = refetch === 'none' ? null : refetch;
    const first = type === null ? [] : this.firstReadsInFlight(filters);
    const invalidated = super.invalidateQueries(filters, options);
    if (first.length === 0) return invalidated;
    const again = Promise.all(first.map((q) => q.cancel({ revert: true })))
      .then(() => this.refetchQueries({ type: type ?? 'active', predicate: (q) => first.includes(q) }, options))
      .catch(() => undefined);
    return Promise.all([invalidated, again]).then(() => undefined);
  }

  /**
   * For the socket's first hello: a first read in flight is not started over (page-load reads would
   * paint later); it is read once more after it lands instead, since it may have been answered before
   * events that the socket, not yet joined, never received.
   */
  invalidateKeepingFirstReads(filters: InvalidateQueryFilters = {}, options: InvalidateOptions = {}): Promise<void> {
    const first = filters.refetchType === 'none' ? [] : this.firstReadsInFlight(filters);
    const invalidated = super.invalidateQueries(filters, options);
    for (const q of first) {
      void (q.promise ?? Promise.resolve())
        .then(() => super.invalidateQueries({ ...filters, predicate: (x) => x === q }, options))
        .catch(() => undefined);
    }
    return invalidated;
  }

  private firstReadsInFlight(filters: InvalidateQueryFilters): Query[] {
    return this.getQueryCache().findAll(filters).filter((q) => q.state.data === undefined && q.state.fetchStatus === 'fetching');
  }
}

/** Reads: errors the server meant (4xx codes) are not retried; network trouble is, twice. Writes: never held back (below). */
export function createQueryClient(): PortalQueryClient {
  return new PortalQueryClient({
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        refetchOnWindowFocus: false,
        retry: (failureCount, error) => {
          if (isApiError(error) && error.status !== null && error.status < 500) return false;
          return failureCount < 2;
        },
      },
      // A write is sent when it is pressed, or fails then with the network's message: react-query's default
      // ('online') held it while the device was offline and sent it on reconnect. A withdrawal pressed
      // offline said only "Sending...", the player pressed again after reopening the form, and both went
      // out when the signal came back: two withdrawals, and a deposit opened its payment page by itself.
      mutations: { networkMode: 'always' },
    },
  });
}
