import { authCalls } from '@portal/contracts/api/auth';
import { call } from '../../../lib/api';
import { currentLanguage } from '../../../i18n/i18n';

/** POST /wps/verification/sms/noLogin with purpose 'login'. */
export function sendSmsLoginCode(mobileNum: string, countryDialingCode: string): Promise<{ expiredMinutes: number }> {
  return call(authCalls.smsNoLogin, { body: { mobileNum, countryDialingCode, purpose: 'login', language: currentLanguage() } });
}
