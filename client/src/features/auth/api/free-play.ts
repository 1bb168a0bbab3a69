import { authCalls } from '@portal/contracts/api/auth';
import { call } from '../../../lib/api';
import type { TLoginValue } from '../lib/auth-types';

/** POST /wps/session/login/freeplay: a trial session (FREEPLAY3). */
export function freePlay(): Promise<TLoginValue> {
  return call(authCalls.freePlay, { body: { platform: 'W' } });
}
