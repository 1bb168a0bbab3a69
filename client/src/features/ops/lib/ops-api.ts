import { OPS_PREFIX } from '@portal/contracts/api/ops';
import { ApiError, CLIENT_ERROR_CODE, buildUrl, createApiClient } from '../../../lib/api';
import { getMerchantCode } from '../../../lib/merchant';
import { clearOpsToken, getOpsToken } from './ops-session';

/** The same fetcher as the player's, with the operator token: a 401 ends the operator session. */
export const opsCall = createApiClient({
  fetch: (input, init) => fetch(input, init),
  getToken: getOpsToken,
  getMerchant: getMerchantCode,
  onUnauthorized: clearOpsToken,
});

function authHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const token = getOpsToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const merchant = getMerchantCode();
  if (merchant) headers['X-Merchant-Code'] = merchant;
  return headers;
}

/**
 * Bytes from an /ops/api path (withdrawal proofs, the audit CSV): not an envelope, so not `opsCall`.
 * Errors still come as an envelope and read as ApiError codes.
 */
export async function fetchOpsBlob(path: string, params: Record<string, string | number>, signal?: AbortSignal, query?: Record<string, string>): Promise<Blob> {
  if (!path.startsWith(OPS_PREFIX)) throw new ApiError(CLIENT_ERROR_CODE.BAD_RESPONSE, `Not an operator path: ${path}`);
  let res: Response;
  try {
    res = await fetch(buildUrl(path, params, query), { headers: authHeaders(), signal, credentials: 'same-origin' });
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    throw new ApiError(CLIENT_ERROR_CODE.NETWORK, e instanceof Error ? e.message : 'Network error');
  }
  if (res.ok) return res.blob();
  let code: string = CLIENT_ERROR_CODE.BAD_RESPONSE;
  try {
    const json: unknown = await res.json();
    if (typeof json === 'object' && json !== null && 'code' in json && typeof json.code === 'string') code = json.code;
  } catch {
    // Not an envelope: keep BAD_RESPONSE.
  }
  if (res.status === 401) clearOpsToken();
  throw new ApiError(code, `Request failed (${res.status})`, res.status);
}
