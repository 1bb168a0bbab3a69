import { authCalls } from '@portal/contracts/api/auth';
import { call } from '../../../lib/api';

/** DELETE /wps/session/logout. */
export function logout(): Promise<unknown> {
  return call(authCalls.logout, {});
}
