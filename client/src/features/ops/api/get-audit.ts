import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { opsCalls, type ZAuditEntry } from '@portal/contracts/api/ops';
import { opsCall } from '../lib/ops-api';
import { OPS_KEY, OPS_POLL_MS } from './ops-keys';
import { useBrandOffset } from '../../../lib/whitelabel';
import { FIRST_DAY } from '@portal/contracts/api/instant';

export type TAuditEntry = z.infer<typeof ZAuditEntry>;
export type AuditFilter = { action: string; targetType: string; targetId: string; actor: string; fromDay: string; toDay: string; pageNo: number; pageSize: number };

/**
 * The gateway's filter from the form's: days (YYYY-MM-DD) become [start of from, end of to) on the
 * console's clock (the merchant's, `offsetMinutes` east of UTC, as every time it shows), not the
 * browser's: an auditor in another zone was given another day's trail.
 */
export function auditQueryOf(f: Omit<AuditFilter, 'pageNo' | 'pageSize'>, offsetMinutes: number) {
  const day = (d: string, plus: number) => {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(d);
    // A day before 2000 is not searched (the page says so at its field): Date.UTC read 0026 as 1926.
    if (!m || d < FIRST_DAY) return undefined;
    const at = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + plus) - offsetMinutes * 60_000;
    return Number.isNaN(at) ? undefined : new Date(at).toISOString();
  };
  // Days given the wrong way round are read in order (a reversed range listed nothing, silently).
  const [fromDay, toDay] = f.fromDay && f.toDay && f.fromDay > f.toDay ? [f.toDay, f.fromDay] : [f.fromDay, f.toDay];
  return {
    action: f.action || undefined, targetType: f.targetType || undefined, targetId: f.targetId.trim() || undefined,
    actor: f.actor.trim() || undefined, from: day(fromDay, 0), to: day(toDay, 1),
  };
}

/** GET /ops/api/audit, newest first, polled. Empty filters are left out. */
export const auditQuery = (f: AuditFilter, offsetMinutes: number) =>
  queryOptions({
    queryKey: [...OPS_KEY, 'audit', f, offsetMinutes],
    queryFn: ({ signal }) =>
      opsCall(opsCalls.audit, {
        query: { ...auditQueryOf(f, offsetMinutes), pageNo: f.pageNo, pageSize: f.pageSize },
        signal,
      }),
    refetchInterval: OPS_POLL_MS,
    staleTime: 0,
    placeholderData: keepPreviousData,
  });

export function useOpsAudit(f: AuditFilter, enabled = true) {
  const offset = useBrandOffset();
  return useQuery({ ...auditQuery(f, offset), enabled });
}
