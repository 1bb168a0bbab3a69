import type { GameType } from '@portal/contracts/domain/constants';
import { VENDOR_CODES } from '@portal/contracts/domain/constants';

/**
 * Where games and vendors open (spec section 2, game launch routing). Shared: the header, the
 * home page and the game pages all route the same way.
 */

/** The named route gameListCenter: vassalage and game type lower-case, vassalage also as query. */
export function gameListCenterPath(vassalage: string, gameType: string): string {
  return `/gameListCenter/${encodeURIComponent(vassalage.toLowerCase())}/${encodeURIComponent(gameType.toLowerCase())}?vassalage=${encodeURIComponent(vassalage)}`;
}

/** Lottery page of a vendor: VN and SEA lotteries have their own pages. */
export function lotteryPathOf(vassalage: string | undefined): string {
  if (vassalage === VENDOR_CODES.VN_LOTTERY) return '/vnLottery';
  if (vassalage === VENDOR_CODES.SEA_LOTTERY) return '/seaLottery';
  return '/lottery';
}

/** The page a vendor of a game type opens. */
export function vendorPagePath(vassalage: string, gameType: GameType): string {
  const v = encodeURIComponent(vassalage);
  switch (gameType) {
    case 'LOTT':
    case 'ELOTT':
      return `${lotteryPathOf(vassalage)}?vassalage=${v}`;
    case 'RNG':
      return gameListCenterPath(vassalage, gameType);
    case 'FISH':
      return `/fish?vassalage=${v}`;
    case 'PVP':
      return `/pvp?vassalage=${v}`;
    case 'LIVE':
      return `/live?vassalage=${v}`;
    case 'SPORTS':
      return `/sports?vassalage=${v}`;
    case 'ESPORTS':
      return `/esports?vassalage=${v}`;
    case 'COCKFIGHT':
      return `/cockfight?vassalage=${v}`;
  }
}
