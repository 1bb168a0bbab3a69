import type { TBanner } from '@portal/contracts/api/content';
import { GAME_TYPES, NAV_ITEMS, type GameType } from '@portal/contracts/domain/constants';

export type BannerTarget = { kind: 'external'; href: string } | { kind: 'route'; path: string };

const isGameType = (s: string): s is GameType => (GAME_TYPES as readonly string[]).includes(s);

/** The page a game type opens on (spec: game launch routing). */
export function gamePagePath(gameType: GameType): string {
  return NAV_ITEMS.find((n) => n.gameType === gameType)?.path ?? '/';
}

/** Only in-app absolute paths; '//host' would leave the site. */
const isAppPath = (s: string) => s.startsWith('/') && !s.startsWith('//') && !s.includes('\\');

/**
 * Where a banner click goes, or null when it goes nowhere. URL linkages open only
 * http(s) addresses; ROUTE linkages only in-app paths. GAME linkages
 * ('GAMETYPE[:VASSALAGE[:GAMECODE]]') go to the game type's page for now: launching
 * games comes later.
 */
export function bannerTarget(banner: Pick<TBanner, 'linkageType' | 'linkage'>): BannerTarget | null {
  const linkage = banner.linkage?.trim();
  if (!banner.linkageType || !linkage) return null;
  switch (banner.linkageType) {
    case 'URL': {
      try {
        const url = new URL(linkage);
        return url.protocol === 'https:' || url.protocol === 'http:' ? { kind: 'external', href: url.href } : null;
      } catch {
        return null;
      }
    }
    case 'ROUTE':
      return isAppPath(linkage) ? { kind: 'route', path: linkage } : null;
    case 'GAME': {
      if (isAppPath(linkage)) return { kind: 'route', path: linkage };
      const [type, vassalage, gameCode] = linkage.split(':');
      const upper = (type ?? '').toUpperCase();
      if (!isGameType(upper)) return null;
      const params = new URLSearchParams();
      if (vassalage) params.set('vassalage', vassalage.toLowerCase());
      if (gameCode) params.set('gameCode', gameCode);
      const query = params.toString();
      return { kind: 'route', path: `${gamePagePath(upper)}${query ? `?${query}` : ''}` };
    }
    default:
      return null;
  }
}

/** The portal's own demo art (gateway modules/assets/svg-art.ts): `/img/banner/<name>.svg?t=<title>`. */
const DEMO_BANNER_ART = /^\/img\/banner\/[^/?#]+\.svg(?:\?[^#]*)?$/;

/**
 * The image address of a banner. The demo banner art draws its title (`t`) and a tag line ("DEMO
 * PORTAL", `tag`) as text: both are given in the page's language (the title is the banner's, which the
 * server answers in the language asked for: its TY title when it has one). Any other image is used as it is.
 */
export function bannerImageSrc(url: string, demoTag: string, title?: string): string {
  if (!DEMO_BANNER_ART.test(url)) return url;
  const q = url.indexOf('?');
  const params = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
  if (title) params.set('t', title);
  if (demoTag) params.set('tag', demoTag);
  const query = params.toString().replace(/\+/g, '%20');
  return `${q < 0 ? url : url.slice(0, q)}${query ? `?${query}` : ''}`;
}
