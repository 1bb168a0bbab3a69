import { RG_RESTRICTED_CATEGORIES } from '@portal/contracts/api/rg';
import { rgNameKey } from '@portal/contracts/domain/registration';
import type { Db, Queryable } from '../../db/db.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { rgAudit, type Rg } from './rg-service.ts';
import { iso } from '../../db/iso.ts';

export type RestrictedCategory = (typeof RG_RESTRICTED_CATEGORIES)[number];

// ---------------------------------------------------------------- matching rule (pure)

/** The matching key of a full name: shared with the client (contracts). */
export { rgNameKey };

/** A real calendar date written YYYY-MM-DD, else null. */
export function isoDate(v: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v.trim());
  if (!m) return null;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (d.getUTCFullYear() !== Number(m[1]) || d.getUTCMonth() !== Number(m[2]) - 1 || d.getUTCDate() !== Number(m[3])) return null;
  if (Number(m[1]) < 1900) return null;
  return `${m[1]}-${m[2]}-${m[3]}`;
}

const CATEGORY_ALIASES: Record<string, RestrictedCategory> = {
  government_official: 'government_official', government: 'government_official', government_officials: 'government_official', official: 'government_official',
  armed_forces_police: 'armed_forces_police', armed_forces: 'armed_forces_police', police: 'armed_forces_police', military: 'armed_forces_police', armed_forces_and_police: 'armed_forces_police',
  licensee_employee: 'licensee_employee', licensee_employees: 'licensee_employee', employee: 'licensee_employee',
  national_exclusion: 'national_exclusion', national_exclusion_list: 'national_exclusion', nde: 'national_exclusion',
};
export function categoryOf(v: string): RestrictedCategory | null {
  return CATEGORY_ALIASES[v.trim().toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '')] ?? null;
}

/** RFC 4180 fields of one CSV text: quoted fields may hold commas, quotes ("") and line breaks. */
export function csvRecords(text: string): string[][] {
  const out: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const src = text.replace(/^\uFEFF/, '');
  while (i < src.length) {
    const c = src[i]!;
    if (quoted) {
      if (c === '"') {
        if (src[i + 1] === '"') { field += '"'; i += 2; continue; }
        quoted = false; i++; continue;
      }
      field += c; i++; continue;
    }
    if (c === '"' && field === '') { quoted = true; i++; continue; }
    if (c === ',') { row.push(field); field = ''; i++; continue; }
    if (c === '\r' || c === '\n') {
      row.push(field); field = '';
      out.push(row); row = [];
      i += c === '\r' && src[i + 1] === '\n' ? 2 : 1;
      continue;
    }
    field += c; i++;
  }
  if (field !== '' || row.length) { row.push(field); out.push(row); }
  return out.filter((r) => r.some((f) => f.trim() !== ''));
}

export type RestrictedRow = { fullName: string; nameKey: string; birthDate: string; category: RestrictedCategory; idNumber: string | null };

/**
 * The rows of a restricted-persons CSV: full_name, birth_date (YYYY-MM-DD), category, optional
 * id_number; a first line naming the columns is skipped. Every bad line is reported (line number and
 * problem); the caller stores nothing unless there are none.
 */
export function parseRestrictedCsv(text: string): { rows: RestrictedRow[]; problems: Array<{ path: string; message: string }> } {
  const records = csvRecords(text);
  const rows: RestrictedRow[] = [];
  const problems: Array<{ path: string; message: string }> = [];
  records.forEach((r, idx) => {
    const line = idx + 1;
    if (idx === 0 && /full.?name/i.test(r[0] ?? '')) return;
    const [name = '', birth = '', cat = '', idNumber = ''] = r.map((f) => f.trim());
    const problem = (message: string) => problems.push({ path: `line ${line}`, message });
    if (r.length < 3 || r.length > 4) return problem('expected 3 or 4 columns: full_name, birth_date, category, id_number');
    const key = rgNameKey(name);
    if (!key || name.length > 200) return problem('full_name is empty or too long');
    const date = isoDate(birth);
    if (!date) return problem('birth_date must be a date written YYYY-MM-DD');
    const category = categoryOf(cat);
    if (!category) return problem(`category must be one of ${RG_RESTRICTED_CATEGORIES.join(', ')}`);
    if (idNumber.length > 64) return problem('id_number is too long');
    rows.push({ fullName: name, nameKey: key, birthDate: date, category, idNumber: idNumber || null });
  });
  if (!rows.length && !problems.length) problems.push({ path: 'csv', message: 'no rows' });
  return { rows, problems };
}

// ---------------------------------------------------------------- database

export const RG_RECHECK_JOB = 'rg.restricted.recheck';

type ImportRow = { id: string | number; imported_by: string; row_count: number; created_at: Date | string; checked_at: Date | string | null; matched: number | null; lifted: number | null };
const toImport = (r: ImportRow) => ({ id: Number(r.id), rows: r.row_count, importedBy: r.imported_by, importedAt: iso(r.created_at)!, checkedAt: iso(r.checked_at), matched: r.matched, lifted: r.lifted });

/**
 * Whether a person is on the merchant's restricted-persons list (normalized full name + birth date):
 * the registration check. The list itself is never shown to the caller.
 */
export async function isRestrictedPerson(q: Queryable, merchant: string, fullName: string, birthDate: string): Promise<boolean> {
  const key = rgNameKey(fullName);
  if (!key) return false;
  const r = await q.query('SELECT 1 FROM rg_restricted_persons WHERE merchant_code = $1 AND name_key = $2 AND birth_date = $3 LIMIT 1', [merchant, key, birthDate]);
  return r.rows.length > 0;
}

export function createRestricted(deps: { db: Db; jobs: JobQueue | null; rg: Rg }) {
  const { db } = deps;

  /**
   * The other half of the re-check: a member whose `restricted` exclusion (one a list match started,
   * never a self, cooling, family or operator exclusion) is in force but who is no longer on the
   * merchant's current list gets it lifted, by the system, recorded against the import whose list
   * dropped them (`lifted_by_import`) and audited (`rg.restricted.lift` and `rg.exclusion.end`).
   * Runs under the list's lock, so an import landing meanwhile waits and is checked by its own job.
   */
  async function liftDropped(merchant: string, importId: number): Promise<number> {
    return db.tx(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`rg-restricted:${merchant}`]);
      const current = (await tx.query<{ id: string }>('SELECT id::text FROM rg_restricted_imports WHERE merchant_code = $1 ORDER BY rg_restricted_imports.id DESC LIMIT 1', [merchant])).rows[0];
      // Only the newest list decides: an older import's late job lifts nothing.
      if (!current || Number(current.id) !== importId) return 0;
      const r = await tx.query<{ id: string; member_id: number }>(
        `UPDATE rg_exclusions x SET ended_at = now(), ended_by = 'system', lifted_by_import = $2
          WHERE x.merchant_code = $1 AND x.kind = 'restricted' AND x.ended_at IS NULL
            AND NOT EXISTS (SELECT 1 FROM members m JOIN rg_restricted_persons p
                              ON p.merchant_code = m.merchant_code AND p.name_key = m.rg_name_key AND p.birth_date = m.birth_date
                             WHERE m.id = x.member_id)
          RETURNING x.id::text, x.member_id`, [merchant, importId]);
      for (const x of r.rows) {
        await rgAudit(tx, merchant, { kind: 'system' }, 'rg.restricted.lift', x.member_id, { exclusionId: x.id, kind: 'restricted' }, { importId });
        await rgAudit(tx, merchant, { kind: 'system' }, 'rg.exclusion.end', x.member_id, { id: x.id, kind: 'restricted' }, { reason: 'not on the current restricted list', importId });
      }
      return r.rows.length;
    });
  }

  return {
    /**
     * Replace the merchant's list with the CSV's rows (all or nothing: a bad line refuses the whole
     * file with every problem listed), audited, and enqueue the re-check of the existing members.
     */
    async importCsv(merchant: string, operator: { id: number; username: string }, csv: string) {
      const { rows, problems } = parseRestrictedCsv(csv);
      if (problems.length) throw new AppError(ErrorCode.VALIDATION, 'The file has lines that cannot be read', problems.slice(0, 50));
      return db.tx(async (tx) => {
        // One import at a time per merchant (two operators uploading at once queue here).
        await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`rg-restricted:${merchant}`]);
        const imp = (await tx.query<ImportRow>(
          'INSERT INTO rg_restricted_imports (merchant_code, imported_by, row_count) VALUES ($1, $2, $3) RETURNING *', [merchant, operator.username, rows.length])).rows[0]!;
        await tx.query('DELETE FROM rg_restricted_persons WHERE merchant_code = $1', [merchant]);
        for (let i = 0; i < rows.length; i += 500) {
          const chunk = rows.slice(i, i + 500);
          await tx.query(
            `INSERT INTO rg_restricted_persons (merchant_code, import_id, full_name, name_key, birth_date, category, id_number)
             SELECT $1, $2, x.full_name, x.name_key, x.birth_date::date, x.category, x.id_number
               FROM jsonb_to_recordset($3::jsonb) AS x(full_name text, name_key text, birth_date text, category text, id_number text)`,
            [merchant, imp.id, JSON.stringify(chunk.map((r) => ({ full_name: r.fullName, name_key: r.nameKey, birth_date: r.birthDate, category: r.category, id_number: r.idNumber })))]);
        }
        await tx.query(
          `INSERT INTO audit_log (merchant_code, operator_id, operator_username, action, target_type, target_id, before, after)
           VALUES ($1, $2, $3, 'rg.restricted.import', 'rg_restricted_list', $4, NULL, $5)`,
          [merchant, operator.id, operator.username, String(imp.id), JSON.stringify({ rows: rows.length })]);
        if (deps.jobs) await deps.jobs.enqueue(RG_RECHECK_JOB, { merchant, importId: Number(imp.id) }, { key: `${merchant}:${imp.id}` }, tx);
        return toImport(imp);
      });
    },

    /**
     * The re-check after a list change: every member of the merchant whose name key and birth date
     * are on the list is recorded as a match, excluded (kind `restricted`, open-ended, by the system)
     * unless already so excluded, and audited (`rg.restricted.match`). Idempotent per import.
     */
    async recheck(merchant: string, importId: number): Promise<number> {
      const hits = await db.query<{ member_id: number; category: RestrictedCategory }>(
        `SELECT DISTINCT ON (m.id) m.id AS member_id, p.category FROM rg_restricted_persons p
           JOIN members m ON m.merchant_code = p.merchant_code AND m.rg_name_key = p.name_key AND m.birth_date = p.birth_date
          WHERE p.merchant_code = $1 AND p.import_id = $2
            AND NOT EXISTS (SELECT 1 FROM rg_restricted_matches x WHERE x.member_id = m.id AND x.import_id = $2)
          ORDER BY m.id, p.category`, [merchant, importId]);
      let n = 0;
      for (const h of hits.rows) {
        const inForce = await db.query<{ id: string }>(
          `SELECT id::text FROM rg_exclusions WHERE member_id = $1 AND kind = 'restricted' AND ended_at IS NULL`, [h.member_id]);
        const exclusionId = inForce.rows[0]?.id
          ?? (await deps.rg.exclude(merchant, h.member_id, { kind: 'system' }, 'restricted', null, `restricted person: ${h.category}`)).id;
        const ins = await db.tx(async (tx) => {
          const r = await tx.query(
            `INSERT INTO rg_restricted_matches (merchant_code, member_id, import_id, category, exclusion_id) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (member_id, import_id) DO NOTHING RETURNING id`, [merchant, h.member_id, importId, h.category, exclusionId]);
          if (r.rows.length) await rgAudit(tx, merchant, { kind: 'system' }, 'rg.restricted.match', h.member_id, undefined, { category: h.category, importId, exclusionId });
          return r.rows.length;
        });
        n += ins;
      }
      const lifted = await liftDropped(merchant, importId);
      await db.query(
        `UPDATE rg_restricted_imports SET checked_at = now(), matched = (SELECT count(*)::int FROM rg_restricted_matches WHERE import_id = $1),
                lifted = coalesce(lifted, 0) + $2 WHERE id = $1`, [importId, lifted]);
      return n;
    },

    liftDropped,

    async summary(merchant: string) {
      const cur = (await db.query<ImportRow>('SELECT * FROM rg_restricted_imports WHERE merchant_code = $1 ORDER BY id DESC LIMIT 1', [merchant])).rows[0];
      const cats = await db.query<{ category: string; n: number }>('SELECT category, count(*)::int AS n FROM rg_restricted_persons WHERE merchant_code = $1 GROUP BY category', [merchant]);
      return { current: cur ? toImport(cur) : null, byCategory: Object.fromEntries(cats.rows.map((c) => [c.category, c.n])) };
    },

    async matches(merchant: string, pageNo: number, pageSize: number) {
      const r = await db.query<{ id: string; member_id: number; account: string; category: RestrictedCategory; import_id: string; matched_at: Date | string; excluded: boolean; ended_at: Date | string | null; lifted_by_import: string | null; ended_by: string | null; total: number }>(
        `SELECT x.id::text, x.member_id, m.account, x.category, x.import_id::text, x.matched_at,
                EXISTS (SELECT 1 FROM rg_exclusions e WHERE e.id = x.exclusion_id AND e.ended_at IS NULL) AS excluded,
                e.ended_at, e.lifted_by_import::text AS lifted_by_import, e.ended_by,
                count(*) OVER ()::int AS total
           FROM rg_restricted_matches x JOIN members m ON m.id = x.member_id LEFT JOIN rg_exclusions e ON e.id = x.exclusion_id
          WHERE x.merchant_code = $1 ORDER BY x.id DESC LIMIT $2 OFFSET $3`, [merchant, pageSize, (pageNo - 1) * pageSize]);
      return {
        list: r.rows.map((x) => ({ id: Number(x.id), memberId: Number(x.member_id), account: x.account, category: x.category, importId: Number(x.import_id), matchedAt: iso(x.matched_at)!, excluded: x.excluded,
          lift: x.excluded || x.ended_at === null ? null : { at: iso(x.ended_at)!, by: x.lifted_by_import !== null ? 'list' as const : 'operator' as const, importId: x.lifted_by_import === null ? null : Number(x.lifted_by_import) },
        })),
        pageNo, pageSize, total: r.rows[0]?.total ?? 0,
      };
    },
  };
}
export type Restricted = ReturnType<typeof createRestricted>;

export function registerRestrictedJobs(jobs: JobQueue, restricted: Restricted) {
  jobs.define<{ merchant: string; importId: number }>(RG_RECHECK_JOB, async (job) => {
    await restricted.recheck(job.payload.merchant, job.payload.importId);
  });
}
