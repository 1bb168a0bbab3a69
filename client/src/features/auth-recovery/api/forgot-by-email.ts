import { authCalls } from '@portal/contracts/api/auth';
import { call } from '../../../lib/api';
import { currentLanguage } from '../../../i18n/i18n';

/** POST /wps/member/password/email: e-mails a reset link (/?resetToken=...) to the account's address. */
export function forgotByEmail(username: string, email: string) {
  return call(authCalls.forgotByEmail, { body: { username, email, language: currentLanguage() } });
}
