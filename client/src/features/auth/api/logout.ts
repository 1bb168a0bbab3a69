import { authCalls } from '@portal/contracts/api/auth';
import { beginSignOut, call } from '../../../lib/api';

/** DELETE /wps/session/logout, after the member calls still in flight are cancelled (no 401s once the token is revoked). */
export function logout(): Promise<unknown> {
  beginSignOut(authCalls.logout);
  return call(authCalls.logout, {});
}
