import { useMutation, useQueryClient } from '@tanstack/react-query';
import { walletCalls } from '@portal/contracts/api/wallet';
import { call } from '../../../lib/api';
import { QUERY_KEYS } from '../../../lib/query-keys';

/** POST /wps/v2/messages/read (some ids or all); answers the new unread count. */
export function markRead(body: { ids?: string[]; all?: boolean }) {
  return call(walletCalls.markRead, { body });
}

export function useMarkRead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: markRead,
    onSuccess: ({ count }) => {
      qc.setQueriesData<{ count: number }>({ queryKey: QUERY_KEYS.unreadCount }, () => ({ count }));
      return qc.invalidateQueries({ queryKey: QUERY_KEYS.messages });
    },
  });
}
