import { authCalls } from '@portal/contracts/api/auth';
import { call } from '../../../lib/api';
import type { TLoginRequest, TLoginValue } from '../lib/auth-types';

/** POST /wps/session/login (username or SMS code). */
export function login(body: TLoginRequest, signal?: AbortSignal): Promise<TLoginValue> {
  return call(authCalls.login, { body, signal });
}
