import { schemaOf } from '../../../lib/lazy-schema';
import { ErrorCode } from '@portal/contracts/api/errors';
import { PROOF_LIMITS, ZWithdrawal, cashierCalls, type TWithdrawal } from '@portal/contracts/api/cashier';
import { ApiError, CLIENT_ERROR_CODE, buildUrl } from '../../../lib/api';
import { getMerchantCode } from '../../../lib/merchant';
import { clearSession, getSessionToken } from '../../../lib/session';
import type { ConfirmInput } from '../machines/withdrawal-confirmation.machine';

/**
 * POST /wps/v2/withdrawals/:id/confirm as multipart/form-data (`result`, `receivedAmount`, up to
 * 3 files `proof`): the JSON `call` does not send files, so this builds the request itself and
 * reads the same envelope.
 */
export async function confirmWithdrawal(input: ConfirmInput, signal?: AbortSignal): Promise<TWithdrawal> {
  const form = new FormData();
  form.append('result', input.result);
  if (input.result === 'partially_received' && input.receivedAmount !== null) form.append('receivedAmount', String(input.receivedAmount));
  for (const p of input.proofs) if (p.blob) form.append(PROOF_LIMITS.field, p.blob, p.name);
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = getSessionToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const merchant = getMerchantCode();
  if (merchant) headers['X-Merchant-Code'] = merchant;
  let res: Response;
  try {
    res = await fetch(buildUrl(cashierCalls.confirmWithdrawal.path, { id: input.withdrawalId }), { method: 'POST', headers, body: form, signal, credentials: 'same-origin' });
  } catch (e) {
    throw new ApiError(CLIENT_ERROR_CODE.NETWORK, e instanceof Error ? e.message : 'Network error');
  }
  const json = (await res.json().catch(() => null)) as { success?: boolean; code?: string; message?: string; value?: unknown } | null;
  if (!json || typeof json.success !== 'boolean') throw new ApiError(CLIENT_ERROR_CODE.BAD_RESPONSE, `Unexpected response (${res.status})`, res.status);
  if (!json.success || !res.ok) {
    const code = json.code ?? ErrorCode.INTERNAL;
    if (code === ErrorCode.UNAUTHORIZED && token) clearSession();
    throw new ApiError(code, json.message ?? '', res.status, [], json.value);
  }
  const value = (await schemaOf(ZWithdrawal)).safeParse(json.value);
  if (!value.success) throw new ApiError(CLIENT_ERROR_CODE.BAD_RESPONSE, 'Confirm response does not match its contract', res.status);
  return value.data;
}
