import { VIDEO_LANGUAGE, type LanguageCode } from '@portal/contracts/domain/constants';

const VIDEO_HOSTS = ['youtube.com', 'youtube-nocookie.com'];
const VIDEO_ID = /^[A-Za-z0-9_-]{6,20}$/;

export type VideoEmbed = { ok: true; src: string } | { ok: false; reason: 'invalid-url' | 'foreign-host' | 'no-video-id' };

const isVideoHost = (host: string) => VIDEO_HOSTS.some((h) => host === h || host.endsWith(`.${h}`));

/**
 * Turns the brand's video link into an embed address, or says why it may not be shown
 * (spec: a link not from the video site is logged as an error and not shown). The embed
 * always uses the privacy-enhanced youtube-nocookie.com host; `hl` and `cc_lang_pref`
 * carry the player language from VIDEO_LANGUAGE.
 */
export function toVideoEmbed(link: string, language: string): VideoEmbed {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return { ok: false, reason: 'invalid-url' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, reason: 'invalid-url' };
  if (!isVideoHost(url.hostname.toLowerCase())) return { ok: false, reason: 'foreign-host' };

  const segments = url.pathname.split('/').filter(Boolean);
  let id: string | null = null;
  if (segments[0] === 'watch') id = url.searchParams.get('v');
  else if (segments[0] && ['embed', 'shorts', 'live', 'v'].includes(segments[0])) id = segments[1] ?? null;
  if (!id || !VIDEO_ID.test(id)) return { ok: false, reason: 'no-video-id' };

  const params = new URLSearchParams({ rel: '0', modestbranding: '1', playsinline: '1' });
  const lang = VIDEO_LANGUAGE[language.toUpperCase() as LanguageCode];
  if (lang) {
    params.set('hl', lang);
    params.set('cc_lang_pref', lang);
  }
  return { ok: true, src: `https://www.youtube-nocookie.com/embed/${id}?${params.toString()}` };
}
