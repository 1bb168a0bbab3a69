import { authCalls } from '@portal/contracts/api/auth';
import { call } from '../../../lib/api';
import type { TBotChallenge } from '../lib/auth-types';

/** GET /wps/botcheck: a fresh slider challenge (one try each), for this account's login only. */
export function getBotChallenge(account: string, signal?: AbortSignal): Promise<TBotChallenge> {
  return call(authCalls.botChallenge, { query: { account }, signal });
}
