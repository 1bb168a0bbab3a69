import { authCalls } from '@portal/contracts/api/auth';
import { call } from '../../../lib/api';

/** POST /wps/member/password: the old password is left out when the change is forced by the default one. */
export function changePassword(oldPassword: string, newPassword: string, confirmNewPassword: string) {
  return call(authCalls.changePassword, { body: { ...(oldPassword ? { oldPassword } : {}), newPassword, confirmNewPassword } });
}
