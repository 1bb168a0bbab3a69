import { oidcCalls } from '@portal/contracts/api/auth';
import type { TLoginValue } from '@portal/contracts/api/auth';
import { call } from '../../../lib/api';

/** POST /wps/session/oidc/exchange: the one-time handoff code from the callback becomes a session (once). */
export function exchangeOidcCode(code: string): Promise<TLoginValue> {
  return call(oidcCalls.oidcExchange, { body: { code } });
}
