import { authCalls } from '@portal/contracts/api/auth';
import { call } from '../../../lib/api';

/** POST /wps/member/password/reset: the e-mailed link's token and the new password; answers a login value. */
export function resetByToken(resetToken: string, newPassword: string, confirmNewPassword: string) {
  return call(authCalls.resetByToken, { body: { resetToken, newPassword, confirmNewPassword } });
}
