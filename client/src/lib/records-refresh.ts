import { useQueryClient } from '@tanstack/react-query';
import { useRealtimeEvent } from '../realtime/realtime-context';

/**
 * A record list on screen (betting record, account record) is read again when the balance moves (a
 * bet, a win or a deposit, also from another tab) and when Search is pressed, even with the range
 * already applied: the query key did not change, so the global staleTime kept the old, empty page.
 * An in-flight read is kept, not restarted, so a stream of spins does not starve it.
 */
export function useRecordsRefresh(queryKey: readonly unknown[]): () => void {
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey }, { cancelRefetch: false });
  useRealtimeEvent('balance.changed', refresh);
  return refresh;
}
