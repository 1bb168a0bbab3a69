import type { Response } from 'express';
import type { Queryable } from '../../db/db.ts';

export type AuditFilter = { actor?: string; action?: string; targetType?: string; targetId?: string; from?: string; to?: string };

/** The WHERE clause of an audit search (merchant, actor, action, target, [from, to)) and its arguments. */
export function auditWhere(merchant: string, f: AuditFilter) {
  const args: unknown[] = [merchant];
  const parts = ['merchant_code = $1'];
  const add = (sql: string, v: unknown) => {
    args.push(v);
    parts.push(sql.replace('?', `$${args.length}`));
  };
  if (f.actor) add('operator_username = ?', f.actor.toLowerCase());
  if (f.action) add('action = ?', f.action);
  if (f.targetType) add('target_type = ?', f.targetType);
  if (f.targetId) add('target_id = ?', f.targetId);
  if (f.from) add('at >= ?::timestamptz', f.from);
  if (f.to) add('at < ?::timestamptz', f.to);
  return { sql: parts.join(' AND '), args };
}

/**
 * One CSV cell: a value a spreadsheet would run as a formula (starting with = + - @, or a tab or
 * carriage return) gets a leading apostrophe; a cell holding a quote, comma or line break is quoted
 * with its quotes doubled.
 */
export function csvCell(v: unknown): string {
  let s = v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const HEADER = ['id', 'at', 'operator', 'action', 'target_type', 'target_id', 'before', 'after'];
const BATCH = 500;

/** Stream the filtered audit trail as CSV, newest first, in keyset batches (never the whole trail in memory). */
export async function auditCsv(db: Queryable, merchant: string, f: AuditFilter, res: Response) {
  const w = auditWhere(merchant, f);
  res.status(200).set({
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="audit-${merchant}.csv"`,
    'Cache-Control': 'private, no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  res.write(`${HEADER.join(',')}\r\n`);
  let below: string | null = null;
  for (;;) {
    const r: { rows: Array<{ id: string | number; at: Date | string; operator_username: string; action: string; target_type: string; target_id: string; before: unknown; after: unknown }> } = await db.query(
      `SELECT id, at, operator_username, action, target_type, target_id, before, after FROM audit_log
       WHERE ${w.sql} AND ($${w.args.length + 1}::bigint IS NULL OR id < $${w.args.length + 1}) ORDER BY id DESC LIMIT ${BATCH}`,
      [...w.args, below],
    );
    if (!r.rows.length) break;
    const chunk = r.rows.map((a) => [a.id, (a.at instanceof Date ? a.at : new Date(a.at)).toISOString(), a.operator_username, a.action, a.target_type, a.target_id, a.before, a.after]
      .map((c) => csvCell(typeof c === 'number' ? String(c) : c)).join(',')).join('\r\n');
    if (!res.write(`${chunk}\r\n`)) await new Promise((resolve) => res.once('drain', resolve));
    below = String(r.rows[r.rows.length - 1]!.id);
    if (r.rows.length < BATCH) break;
  }
  res.end();
}
