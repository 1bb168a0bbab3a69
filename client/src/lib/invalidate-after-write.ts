import type { InvalidateQueryFilters, QueryClient } from '@tanstack/react-query';

/**
 * Invalidate what a write changed, including queries whose FIRST fetch is still in flight.
 * react-query's invalidateQueries restarts a fetch in flight only when the query already has data;
 * a first fetch still running is kept (Query.fetch returns its promise), and it may have been sent
 * before the write: its answer would then stand, and nothing refetches it (seen with the RG events
 * list: a save made while the list's first GET was still on its way left the list without it). So
 * the fetches in flight are cancelled first (a first fetch goes back to pending), then invalidated
 * and refetched as usual.
 */
export async function invalidateAfterWrite(qc: QueryClient, filters: InvalidateQueryFilters): Promise<void> {
  await qc.cancelQueries(filters);
  await qc.invalidateQueries(filters);
}
