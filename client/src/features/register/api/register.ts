import { authCalls, type TRegisterBody } from '@portal/contracts/api/auth';
import { call } from '../../../lib/api';
import type { RegisterKind } from '../machines/registration-form';

/** PUT /wps/member/register or /wps/member/register/mobile; with `login: true` the answer carries the session token. */
export function register(kind: RegisterKind, body: TRegisterBody) {
  return call(kind === 'registerMobile' ? authCalls.registerMobile : authCalls.register, { body });
}
