/**
 * A URL of a page outside the SPA (a vendor's game page, the payment provider's pay page) with the
 * portal's language added (`lang=en|ty`), so that page speaks the player's language. A same-origin URL
 * stays relative. Safe to call while rendering on the server (no window: a path stays a path).
 */
export function withLang(url: string, language: string): string {
  const here = typeof window === 'undefined' ? null : window.location;
  const u = new URL(url, here?.href ?? 'http://relative.invalid');
  u.searchParams.set('lang', /^ty/i.test(language) ? 'ty' : 'en');
  const isSameOrigin = here ? u.origin === here.origin : u.origin === 'http://relative.invalid';
  return isSameOrigin ? `${u.pathname}${u.search}${u.hash}` : u.toString();
}
