import { opsCalls } from '@portal/contracts/api/ops';
import { keepTokenAcrossReloads } from '../../../lib/session-keep';
import { opsCall } from './ops-api';
import { getOpsToken, setOpsToken, subscribeOpsToken } from './ops-session';

/** The back office's counterpart of restoreSession: the operator token (GET/POST /ops/api/session/keep). */
export function restoreOpsSession(): Promise<void> {
  return keepTokenAcrossReloads({
    legacyKey: 'portal.opsToken',
    get: getOpsToken,
    set: setOpsToken,
    subscribe: subscribeOpsToken,
    restore: () => opsCall(opsCalls.restoreSession, {}),
    keep: () => opsCall(opsCalls.keepSession, { body: {} }),
  });
}
