import { contentCalls, type TAnnouncements } from '@portal/contracts/api/content';
import { gameCalls, type TGame } from '@portal/contracts/api/games';
import { LIMITS, type LanguageCode } from '@portal/contracts/domain/constants';
import { call } from '../../../lib/api';
import { startEarlyCall } from '../../../lib/early-calls';

/**
 * The home page's first reads, without React (main.tsx starts them early on the home page; the
 * queries of get-announcements.ts and get-hot-games.ts adopt them).
 */

/** GET /wps/relay/MCSFE_getListAnnouncements: banners, player notices, popups, promotions. */
export function getAnnouncements(language: LanguageCode, signal?: AbortSignal): Promise<TAnnouncements> {
  return call(contentCalls.announcements, { query: { types: 'B,PL,PU,PR,H', platform: 'W', language }, signal });
}

/** The spec's hot-games request: desktop platforms (isPlatform 2). */
const HOT_GAMES_PLATFORM = { isPlatform: 2, platform: 'flash,html5-desktop' } as const;

/** GET /wps/relay/GCSGAME_hotGamesV2; the home page shows the first six. */
export async function getHotGames(language: LanguageCode, signal?: AbortSignal): Promise<TGame[]> {
  const value = await call(gameCalls.hotGames, { query: { ...HOT_GAMES_PLATFORM, language }, signal });
  return value.list.slice(0, LIMITS.HOT_GAMES_HOME);
}

export const announcementsCallKey = (language: LanguageCode) => `announcements:${language}`;
export const hotGamesCallKey = (language: LanguageCode) => `hotGames:${language}`;

/**
 * main.tsx on the home page, once the session is restored (announcements differ for a member): both
 * calls in the language the page will render in, before the page's chunks and first render.
 */
export function startHomeCalls(language: LanguageCode): void {
  startEarlyCall(announcementsCallKey(language), () => getAnnouncements(language));
  startEarlyCall(hotGamesCallKey(language), () => getHotGames(language));
}
