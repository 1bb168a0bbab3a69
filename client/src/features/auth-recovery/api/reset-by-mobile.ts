import { authCalls } from '@portal/contracts/api/auth';
import { call } from '../../../lib/api';

type Input = { mobileNum: string; countryDialingCode: string; verificationCode: string; newPassword: string; confirmNewPassword: string };

/** POST /wps/member/password/verification: a new password by SMS code; answers a login value. */
export function resetByMobile(body: Input) {
  return call(authCalls.resetByMobile, { body });
}
