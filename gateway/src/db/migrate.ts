import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { Db } from './db.ts';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
/** Constant key: every node that starts takes this lock, so only one migrates at a time. */
const MIGRATION_LOCK = 7_242_001;

/**
 * Apply pending migrations in one transaction behind an advisory lock, so two nodes starting
 * on a fresh database cannot race (a plain CREATE TABLE IF NOT EXISTS race fails on pg_type).
 */
export async function migrate(db: Db): Promise<string[]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d{3}_.+\.sql$/.test(f)).sort();
  return db.tx(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set((await tx.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name));
    const applied: string[] = [];
    for (const file of files) {
      if (done.has(file)) continue;
      const sql = await readFile(path.join(MIGRATIONS_DIR, file), 'utf8');
      for (const statement of splitSql(sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
      applied.push(file);
    }
    return applied;
  });
}

/**
 * Split on semicolons at line ends, outside dollar-quoted bodies ($$ ... $$ or $tag$ ... $tag$), so a
 * function body's own statements stay with it. Whole-line comments are dropped outside bodies.
 */
export function splitSql(sql: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: string | null = null;
  for (const line of sql.split('\n')) {
    if (quote === null && /^\s*--/.test(line)) continue;
    for (const m of line.matchAll(/\$[A-Za-z_]*\$/g)) {
      if (quote === null) quote = m[0];
      else if (m[0] === quote) quote = null;
    }
    cur += `${line}\n`;
    if (quote === null && /;\s*$/.test(line)) {
      out.push(cur.replace(/;\s*$/, '').trim());
      cur = '';
    }
  }
  if (cur.trim()) out.push(cur.trim());
  return out.filter(Boolean);
}
