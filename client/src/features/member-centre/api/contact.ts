import { authCalls } from '@portal/contracts/api/auth';
import { currentLanguage } from '../../../i18n/i18n';
import { call } from '../../../lib/api';
import type { SmsSendInput } from '../../../lib/sms-countdown-machine';

/** POST /wps/verification/sms/bind: a code to the number being added, in the page's language. */
export function sendBindSms({ mobileNum, countryDialingCode }: SmsSendInput) {
  return call(authCalls.smsBind, { body: { mobileNum, countryDialingCode, language: currentLanguage() } });
}

/** PUT /wps/member/info/mobile: the number, its code and the login password; answers the masked contact. */
export function bindMobile(body: { mobileNum: string; countryDialingCode: string; verificationCode: string; password: string }) {
  return call(authCalls.bindMobile, { body });
}

/** PUT /wps/member/info/email: the address and the login password; answers the masked contact. */
export function bindEmail(body: { email: string; password: string }) {
  return call(authCalls.bindEmail, { body });
}
