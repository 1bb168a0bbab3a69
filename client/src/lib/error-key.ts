import { ErrorCode } from '@portal/contracts/api/errors';
import { CLIENT_ERROR_CODE, isApiError } from './api';

const KNOWN = new Set<string>([...Object.values(ErrorCode), ...Object.values(CLIENT_ERROR_CODE)]);

/**
 * The translation key (namespace common) for an error: the server sends codes, the client
 * translates them. Unknown codes and non-API errors read as 'Unknown error'.
 */
export function errorKey(error: unknown): string {
  if (isApiError(error) && KNOWN.has(error.code)) return `error_${error.code}`;
  return `error_${ErrorCode.INTERNAL}`;
}
