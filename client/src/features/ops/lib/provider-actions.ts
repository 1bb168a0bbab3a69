import type { ProviderState } from '@portal/contracts/api/ops-providers';
import { launchUrlProblem } from '@portal/contracts/domain/launch-url';

/** What an administrator can do to a provider; each names one operator call. */
export type ProviderAction = 'connect' | 'changeUrl' | 'rotate' | 'disconnect';

/**
 * The actions of a provider in `state`: the house is built in; one not connected (or disconnected)
 * can be connected; one played by the simulator can be connected for real (its own secret) or
 * disconnected; one connected from the console can get a new launch URL or secret, or be disconnected.
 */
export function providerActionsFor(state: ProviderState): ProviderAction[] {
  switch (state) {
    case 'house': return [];
    case 'not_connected':
    case 'disconnected': return ['connect'];
    case 'simulated': return ['connect', 'disconnect'];
    case 'connected': return ['changeUrl', 'rotate', 'disconnect'];
  }
}

/** Whether players are shown the provider's games (the server's rule, connected-vendors.ts). */
export const isShownToPlayers = (state: ProviderState): boolean => state === 'house' || state === 'connected' || state === 'simulated';

/** The chip tone of a connection state. */
export const PROVIDER_STATE_TONE: Record<ProviderState, 'success' | 'info' | 'warn' | 'muted'> = {
  house: 'info', connected: 'success', simulated: 'info', disconnected: 'warn', not_connected: 'muted',
};

/** The translation key (namespace ops) of what is wrong with a typed launch URL, or null (the server checks it again). */
export function launchUrlErrorKey(value: string, httpsOnly: boolean): string | null {
  if (!value.trim()) return null;
  const problem = launchUrlProblem(value, { httpsOnly });
  return problem === null ? null : `providers_url_error_${problem}`;
}
