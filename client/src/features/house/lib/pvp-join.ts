import { ErrorCode } from '@portal/contracts/api/errors';
import { isApiError } from '../../../lib/api';
import { errorKey } from '../../../lib/error-key';

/**
 * What a refused Lucky 9 join says: INVALID_STATE is the seats having closed (the deal started) or
 * filled while the click was on its way, said as such ("join the next round"), not as the generic
 * "This action is not allowed right now"; any other refusal by its code.
 */
export function pvpJoinErrorKey(e: unknown): string {
  return isApiError(e) && e.code === ErrorCode.INVALID_STATE ? 'house:pvp_join_missed' : `common:${errorKey(e)}`;
}
