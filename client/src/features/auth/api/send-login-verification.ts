import { authCalls } from '@portal/contracts/api/auth';
import { call } from '../../../lib/api';
import { currentLanguage } from '../../../i18n/i18n';

/** POST /wps/session/login/verify/send: the second step's code by SMS or e-mail. */
export function sendLoginVerification(body: { challengeId: string; method: 'sms' | 'email' }): Promise<{ expiredMinutes: number }> {
  // In the page's language, as the other codes sent are.
  return call(authCalls.loginVerifySend, { body: { ...body, language: currentLanguage() } });
}
