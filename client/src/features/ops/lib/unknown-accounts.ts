import { isApiError } from '../../../lib/api';

/**
 * The accounts a red envelope drop named that do not exist, as the gateway lists them in a refused
 * drop (400 VALIDATION, value `{ unknownAccounts, unknownCount }`: the first 20 and how many in all);
 * null for any other error.
 */
export function unknownAccountsOf(error: unknown): { names: string[]; more: number } | null {
  if (!isApiError(error) || error.code !== 'VALIDATION') return null;
  const v = error.value as { unknownAccounts?: unknown; unknownCount?: unknown } | undefined;
  if (!v || !Array.isArray(v.unknownAccounts) || v.unknownAccounts.length === 0) return null;
  const names = v.unknownAccounts.filter((x): x is string => typeof x === 'string');
  const count = typeof v.unknownCount === 'number' ? v.unknownCount : names.length;
  return { names, more: Math.max(0, count - names.length) };
}
