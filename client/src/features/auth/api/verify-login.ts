import { authCalls } from '@portal/contracts/api/auth';
import { call } from '../../../lib/api';
import type { TLoginValue, TSecondStepMethod } from '../lib/auth-types';

/** POST /wps/session/login/verify: the second step's code; answers like a login. */
export function verifyLogin(body: { challengeId: string; method: TSecondStepMethod; code: string }, signal?: AbortSignal): Promise<TLoginValue> {
  return call(authCalls.loginVerify, { body, signal });
}
