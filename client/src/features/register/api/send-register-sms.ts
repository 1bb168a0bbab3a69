import { authCalls } from '@portal/contracts/api/auth';
import { call } from '../../../lib/api';
import { currentLanguage } from '../../../i18n/i18n';
import type { SmsSendInput } from '../../../lib/sms-countdown-machine';

/** A solved slider for this send (a challenge of purpose 'sms-register' for the same number). */
export type SmsBotAnswer = { botId: string; botAnswer: number; botAnswerY: number };

/**
 * POST /wps/verification/sms/register: the registration code; answers its validity in minutes. With
 * the merchant's bot check on, the server sends nothing without `bot`.
 */
export function sendRegisterSms({ mobileNum, countryDialingCode }: SmsSendInput, bot?: SmsBotAnswer) {
  return call(authCalls.smsRegister, { body: { mobileNo: mobileNum, countryDialingCode, language: currentLanguage(), ...bot } });
}
