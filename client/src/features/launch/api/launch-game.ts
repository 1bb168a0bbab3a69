import { launchCall } from '@portal/contracts/api/vendor';
import { call } from '../../../lib/api';
import type { LaunchResult } from '../machines/launch.machine';

/** POST /wps/game/launchGame: the url to open for a game. */
export function launchGame(input: { nodeId: string; freePlay: boolean }): Promise<LaunchResult> {
  return call(launchCall, { body: { nodeId: input.nodeId, ...(input.freePlay ? { freePlay: true } : {}) } });
}
