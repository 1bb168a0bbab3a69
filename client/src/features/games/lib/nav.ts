import type { TGameCategory, TVendor } from '@portal/contracts/api/games';
import { LIMITS, NAV_ITEMS, NO_DROP_MENU, VENDOR_CODES } from '@portal/contracts/domain/constants';
import { lotteryPathOf, vendorPagePath } from '../../../lib/game-routes';
import type { GameType, NavItemId } from '@portal/contracts/domain/constants';

export type NavEntry = {
  id: NavItemId;
  nameKey: string;
  page: string;
  /** Where a click on the entry goes. */
  path: string;
  gameType: GameType | null;
  vendors: TVendor[];
  /** Vendor cards of the hover drop menu (empty when the entry has none). */
  dropVendors: TVendor[];
  /** A 'more' card follows the vendor cards. */
  hasMore: boolean;
};

/** Entries shown whatever the vendors. */
const ALWAYS: readonly NavItemId[] = ['HOME', 'JL', 'PROMO', 'DOWN'];

/** Lottery pages by the first vendor of the type: VN and SEA have their own pages. */
export function lotteryPath(firstVendor: TVendor | undefined): string {
  return lotteryPathOf(firstVendor?.vassalage);
}

/** The route a vendor card opens. */
export function vendorPath(vendor: TVendor): string {
  return vendorPagePath(vendor.vassalage, vendor.gameType);
}

/**
 * Main navigation from the game categories that have vendors. HOME, JL, PROMO and DOWN always
 * show; the others only when their lane has vendors.
 */
export function buildNav(lanes: readonly TGameCategory[]): NavEntry[] {
  const byType = new Map<GameType, TVendor[]>();
  for (const lane of lanes) byType.set(lane.gameType, [...(byType.get(lane.gameType) ?? []), ...lane.vendors]);

  const out: NavEntry[] = [];
  for (const item of NAV_ITEMS) {
    const vendors = item.gameType ? (byType.get(item.gameType) ?? []) : [];
    if (!ALWAYS.includes(item.id) && vendors.length === 0) continue;
    const isLottery = item.gameType === 'LOTT' || item.gameType === 'ELOTT';
    const hasDrop = !NO_DROP_MENU.includes(item.id) && vendors.length > 0;
    out.push({
      id: item.id,
      nameKey: item.nameKey,
      page: item.page,
      path: isLottery ? lotteryPath(vendors[0]) : item.path,
      gameType: item.gameType,
      vendors,
      dropVendors: hasDrop ? vendors.slice(0, LIMITS.DROP_MENU_MAX_VENDORS) : [],
      hasMore: hasDrop && vendors.length >= LIMITS.DROP_MENU_MAX_VENDORS,
    });
  }
  return out;
}

/** Whether a nav path is the current page (as NavLink matches: '/' exactly, others with their sub-paths). */
function pathMatches(path: string, pathname: string): boolean {
  const p = path.toLowerCase();
  const here = pathname.toLowerCase().replace(/\/+$/, '') || '/';
  return p === '/' ? here === '/' : here === p || here.startsWith(`${p}/`);
}

/**
 * The one entry to highlight. Several entries may lead to the same page (ELOTT and LOTT both to
 * /lottery): then the one the visitor clicked (`clickedId`, the link's router state), else the one
 * whose vendors include the page's ?vassalage=, else the first of them.
 */
export function activeNavId(entries: readonly NavEntry[], pathname: string, vassalage: string | null, clickedId: unknown): NavItemId | null {
  const here = entries.filter((e) => pathMatches(e.path, pathname));
  if (!here.length) {
    // /vnLottery and /seaLottery are one vendor's page each: the lottery entry that lists that vendor
    // (its path is another lottery page when that vendor is not its first).
    const page = pathname.toLowerCase().replace(/\/+$/, '');
    const own = page === '/vnlottery' ? VENDOR_CODES.VN_LOTTERY : page === '/sealottery' ? VENDOR_CODES.SEA_LOTTERY : null;
    const lister = own ? entries.filter((e) => e.vendors.some((x) => x.vassalage === own)) : [];
    return (lister.find((e) => e.id === clickedId) ?? lister[0])?.id ?? null;
  }
  if (here.length === 1) return here[0]!.id;
  const clicked = here.find((e) => e.id === clickedId);
  if (clicked) return clicked.id;
  const v = vassalage?.toUpperCase();
  const byVendor = v ? here.find((e) => e.vendors.some((x) => x.vassalage.toUpperCase() === v)) : undefined;
  return (byVendor ?? here[0])?.id ?? null;
}

/** Every vendor once, in lane order (footer logo row). */
export function uniqueVendors(lanes: readonly TGameCategory[]): TVendor[] {
  const seen = new Set<string>();
  const out: TVendor[] = [];
  for (const lane of lanes) {
    for (const v of lane.vendors) {
      if (seen.has(v.vassalage)) continue;
      seen.add(v.vassalage);
      out.push(v);
    }
  }
  return out;
}

/** Vendor icons are not shown for the SEA lottery vendor (spec section 3). */
export function vendorIcon(vendor: TVendor): string | null {
  return vendor.vassalage === VENDOR_CODES.SEA_LOTTERY ? null : vendor.iconUrl;
}
