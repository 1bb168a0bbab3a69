import { authCalls } from '@portal/contracts/api/auth';
import { call } from '../../../lib/api';
import type { SmsSendInput } from '../../../lib/sms-countdown-machine';

/** POST /wps/verification/sms/register: the registration code; answers its validity in minutes. */
export function sendRegisterSms({ mobileNum, countryDialingCode }: SmsSendInput) {
  return call(authCalls.smsRegister, { body: { mobileNo: mobileNum, countryDialingCode } });
}
