/**
 * A timestamp column as the API sends it (ISO 8601, UTC). pg gives a Date, PGlite a Date or a string;
 * a missing one (null, undefined) stays null.
 */
export function iso(v: Date | string): string;
export function iso(v: Date | string | null | undefined): string | null;
export function iso(v: Date | string | null | undefined): string | null {
  return v === null || v === undefined ? null : (v instanceof Date ? v : new Date(v)).toISOString();
}
