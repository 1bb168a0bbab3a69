import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { opsCalls, type ZAuditEntry } from '@portal/contracts/api/ops';
import { opsCall } from '../lib/ops-api';
import { OPS_KEY, OPS_POLL_MS } from './ops-keys';

export type TAuditEntry = z.infer<typeof ZAuditEntry>;
export type AuditFilter = { action: string; targetType: string; targetId: string; actor: string; fromDay: string; toDay: string; pageNo: number; pageSize: number };

/** The gateway's filter from the form's: days (YYYY-MM-DD, local) become [start of from, end of to). */
export function auditQueryOf(f: Omit<AuditFilter, 'pageNo' | 'pageSize'>) {
  const day = (d: string, plus: number) => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(d)) return undefined;
    const at = new Date(`${d}T00:00:00`);
    if (Number.isNaN(at.getTime())) return undefined;
    at.setDate(at.getDate() + plus);
    return at.toISOString();
  };
  return {
    action: f.action || undefined, targetType: f.targetType || undefined, targetId: f.targetId.trim() || undefined,
    actor: f.actor.trim() || undefined, from: day(f.fromDay, 0), to: day(f.toDay, 1),
  };
}

/** GET /ops/api/audit, newest first, polled. Empty filters are left out. */
export const auditQuery = (f: AuditFilter) =>
  queryOptions({
    queryKey: [...OPS_KEY, 'audit', f],
    queryFn: ({ signal }) =>
      opsCall(opsCalls.audit, {
        query: { ...auditQueryOf(f), pageNo: f.pageNo, pageSize: f.pageSize },
        signal,
      }),
    refetchInterval: OPS_POLL_MS,
    staleTime: 0,
    placeholderData: keepPreviousData,
  });

export function useOpsAudit(f: AuditFilter, enabled = true) {
  return useQuery({ ...auditQuery(f), enabled });
}
