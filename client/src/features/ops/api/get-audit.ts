import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { opsCalls, type ZAuditEntry } from '@portal/contracts/api/ops';
import { opsCall } from '../lib/ops-api';
import { OPS_KEY, OPS_POLL_MS } from './ops-keys';

export type TAuditEntry = z.infer<typeof ZAuditEntry>;
export type AuditFilter = { action: string; targetType: string; targetId: string; pageNo: number; pageSize: number };

/** GET /ops/api/audit, newest first, polled. Empty filters are left out. */
export const auditQuery = (f: AuditFilter) =>
  queryOptions({
    queryKey: [...OPS_KEY, 'audit', f],
    queryFn: ({ signal }) =>
      opsCall(opsCalls.audit, {
        query: { action: f.action || undefined, targetType: f.targetType || undefined, targetId: f.targetId.trim() || undefined, pageNo: f.pageNo, pageSize: f.pageSize },
        signal,
      }),
    refetchInterval: OPS_POLL_MS,
    staleTime: 0,
    placeholderData: keepPreviousData,
  });

export function useOpsAudit(f: AuditFilter) {
  return useQuery(auditQuery(f));
}
