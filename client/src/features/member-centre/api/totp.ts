import { authCalls } from '@portal/contracts/api/auth';
import { call } from '../../../lib/api';

/** POST /wps/member/totp/setup: a new secret (not active until confirmed) with its otpauth URL and QR (PNG data URL). */
export function setupTotp() {
  return call(authCalls.totpSetup, { body: {} });
}

/** POST /wps/member/totp/enable: confirms the secret with a current 6-digit code. */
export function enableTotp(code: string) {
  return call(authCalls.totpEnable, { body: { code } });
}
