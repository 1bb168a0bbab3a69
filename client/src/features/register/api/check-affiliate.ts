import { authCalls } from '@portal/contracts/api/auth';
import { call } from '../../../lib/api';

/** GET /wps/agent/affiliate?code=&domain=: refuses an unknown invitation code (INVALID_INVITATION_CODE). */
export function checkAffiliate(code: string, domain: string) {
  return call(authCalls.affiliate, { query: { code, domain } });
}
