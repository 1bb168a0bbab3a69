import { authCalls } from '@portal/contracts/api/auth';
import { call } from '../../../lib/api';
import type { TBotChallenge } from '../lib/auth-types';

/**
 * GET /wps/botcheck: a fresh slider challenge (one try each), good only for `purpose` and `account`:
 * this account's login, or ('sms-register') the registration SMS to this mobile number.
 */
export function getBotChallenge(account: string, signal?: AbortSignal, purpose: 'login' | 'sms-register' = 'login'): Promise<TBotChallenge> {
  return call(authCalls.botChallenge, { query: { account, purpose }, signal });
}
