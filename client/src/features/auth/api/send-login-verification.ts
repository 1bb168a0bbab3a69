import { authCalls } from '@portal/contracts/api/auth';
import { call } from '../../../lib/api';

/** POST /wps/session/login/verify/send: the second step's code by SMS or e-mail. */
export function sendLoginVerification(body: { challengeId: string; method: 'sms' | 'email' }): Promise<{ expiredMinutes: number }> {
  return call(authCalls.loginVerifySend, { body });
}
