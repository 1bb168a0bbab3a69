import { VENDOR_CODES } from '@portal/contracts/domain/constants';
import type { LaunchTarget } from '../../../lib/game-launch';
import { vendorPagePath } from '../../../lib/game-routes';

/**
 * Spec section 2, game launch routing: the page a target goes to instead of starting a game, or
 * null when the game starts (or its provider's popup list opens).
 */
export function launchRouteOf(target: LaunchTarget): string | null {
  if (target.kind === 'vendor') return vendorPagePath(target.vassalage, target.gameType);
  const { game } = target;
  if (target.direct) return null;
  const code = encodeURIComponent(game.gameCode);
  if (game.vassalage === VENDOR_CODES.VN_LOTTERY) return `/vnLottery?gameCode=${code}`;
  if (game.vassalage === VENDOR_CODES.SEA_LOTTERY) return `/seaLottery?gameCode=${code}`;
  // With its vendor: lottery vendors share game codes (LO001 is TCG's, the SEA lottery's and the Vietnam one's).
  if (game.gameType === 'LOTT' || game.gameType === 'ELOTT') return `/lottery?vassalage=${encodeURIComponent(game.vassalage)}&gameCode=${code}`;
  return null;
}

/** A provider entry (isGame VASSALAGE) opens a popup list of that provider's games. */
export function isProviderEntry(target: LaunchTarget): boolean {
  return target.kind === 'game' && !target.direct && target.game.isGame === 'VASSALAGE';
}

/** The built-in house provider offers play-money free play (FREEPLAY3), to guests and trial users too. */
export const FREE_PLAY_VENDOR = 'HOUSE';

/** Free play of a house game opens its page in play-money mode, without a login; null otherwise. */
export function freePlayRouteOf(target: LaunchTarget): string | null {
  if (target.kind !== 'game' || target.freePlay !== true || target.game.vassalage !== FREE_PLAY_VENDOR) return null;
  return `/house/play?${new URLSearchParams({ game: target.game.gameCode, mode: 'free' }).toString()}`;
}
