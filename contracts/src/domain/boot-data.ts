/**
 * Boot data (issue 12, first paint): the gateway answers the bootstrap calls every visitor's first
 * page needs inside index.html, as `<script type="application/json" id="boot-data">`, and the client
 * uses those answers instead of sending the calls (once each, as a guest, before any live event).
 * The queries are defined here so that the gateway builds exactly the URLs the client asks for.
 */
import type { LanguageCode } from './constants';

export const BOOT_DATA_ELEMENT_ID = 'boot-data';

export type TBootData = {
  v: 1;
  /**
   * The seq of the merchant's audience the answers reflect (`merchant:CODE` -> seq): the client's
   * first socket connection catches up from there instead of re-reading every query.
   */
  seq: Record<string, number>;
  /** Request URL (path and query, as `bootUrl` builds it) -> the gateway's envelope for it. */
  calls: Record<string, unknown>;
};

/** The home page's announcements call (notice bar, banners, popups, promotions). */
export function homeAnnouncementsQuery(language: LanguageCode) {
  return { types: 'B,PL,PU,PR,H', platform: 'W', language } as const;
}

/** The announcement popup's call (any page, until the visitor closes it this session). */
export function popupsQuery(language: LanguageCode) {
  return { types: 'PU,PR', platform: 'W', language } as const;
}

/** The spec's hot-games request: desktop platforms (isPlatform 2). */
export function hotGamesQuery(language: LanguageCode) {
  return { isPlatform: 2, platform: 'flash,html5-desktop', language } as const;
}

/** `path?query` the way the client's fetcher writes it (lib/api.ts buildUrl: empty values dropped, insertion order). */
type SearchParams = { append(name: string, value: string): void; toString(): string };
/** Browsers' and Node's URLSearchParams (this package is built without the DOM or Node types). */
const SearchParamsCtor = (globalThis as unknown as { URLSearchParams: new () => SearchParams }).URLSearchParams;

export function bootUrl(path: string, query: Record<string, unknown> = {}): string {
  const search = new SearchParamsCtor();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === '') continue;
    search.append(k, String(v));
  }
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

/**
 * JSON safe to place between `<script type="application/json">` and `</script>`: `<`, `>` and `&`
 * (so no `</script>` or `<!--` can end or bend the element), and U+2028/2029, written as \u escapes,
 * which JSON.parse reads back unchanged.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
