import { useMutation, useQueryClient } from '@tanstack/react-query';
import { walletCalls } from '@portal/contracts/api/wallet';
import type { MessageCategory } from '@portal/contracts/events/events';
import { call } from '../../../lib/api';
import { QUERY_KEYS } from '../../../lib/query-keys';

/** POST /wps/v2/messages/read (some ids, all of a tab, or all); answers the new unread counts. */
export function markRead(body: { ids?: string[]; all?: boolean; category?: MessageCategory }) {
  return call(walletCalls.markRead, { body });
}

export function useMarkRead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: markRead,
    onSuccess: (unread) => {
      qc.setQueriesData({ queryKey: QUERY_KEYS.unreadCount }, () => unread);
      return qc.invalidateQueries({ queryKey: QUERY_KEYS.messages });
    },
  });
}
