/**
 * A game provider's launch URL: where the portal sends a player's browser, adding its own query
 * (`?token=...&game=...&vendor=...`). So it is an absolute http(s) address with a host name, and
 * carries no credentials, query or fragment of its own. Production accepts https only (the launch
 * code in the query must not travel in clear); a development server also takes http (a local
 * provider or the vendor simulator).
 */
export const LAUNCH_URL_MAX = 512;

export type LaunchUrlProblem = 'format' | 'https';

/** scheme, host name (or [IPv6]), optional port, optional path: no user info, query or fragment. */
const LAUNCH_URL = /^(https?):\/\/([A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?(\/[^\s?#"'<>\\]*)?$/i;

/** Why `value` is not a launch URL (null: it is one). */
export function launchUrlProblem(value: string, opts: { httpsOnly: boolean }): LaunchUrlProblem | null {
  const v = value.trim();
  if (!v || v.length > LAUNCH_URL_MAX) return 'format';
  const m = LAUNCH_URL.exec(v);
  if (!m) return 'format';
  if (m[3] !== undefined && (Number(m[3]) < 1 || Number(m[3]) > 65535)) return 'format';
  if (opts.httpsOnly && m[1]!.toLowerCase() !== 'https') return 'https';
  return null;
}
