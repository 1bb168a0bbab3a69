import { authCalls } from '@portal/contracts/api/auth';
import { call } from '../../../lib/api';
import { currentLanguage } from '../../../i18n/i18n';
import type { SmsSendInput } from '../../../lib/sms-countdown-machine';

/** POST /wps/verification/sms/noLogin with purpose 'reset'. */
export function sendResetSms({ mobileNum, countryDialingCode }: SmsSendInput) {
  return call(authCalls.smsNoLogin, { body: { mobileNum, countryDialingCode, purpose: 'reset', language: currentLanguage() } });
}
