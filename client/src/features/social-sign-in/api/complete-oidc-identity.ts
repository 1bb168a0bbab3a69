import { oidcCalls } from '@portal/contracts/api/auth';
import type { TLoginValue, TOidcIdentityBody } from '@portal/contracts/api/auth';
import { call } from '../../../lib/api';

/** POST /wps/session/oidc/identity: the identity step of a social sign-in (full name, birth date); a session when it passes. */
export function completeOidcIdentity(body: TOidcIdentityBody): Promise<TLoginValue> {
  return call(oidcCalls.oidcIdentity, { body });
}
