import type { Express, Request, Response } from 'express';
import { createHash } from 'node:crypto';

/**
 * Seed artwork drawn on the server: banners, game tiles, vendor marks and the logo, as SVG from
 * their names. Real operators replace the URLs in their content with their own images.
 */
function hue(seed: string, offset = 0): number {
  const h = createHash('sha1').update(seed).digest();
  return (h[0]! * 256 + h[1]! + offset) % 360;
}
function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
function label(raw: unknown): string {
  return typeof raw === 'string' ? raw.slice(0, 60).replace(/[-_]+/g, ' ') : '';
}

/**
 * The title's font size: 84 px, smaller for a title that would not fit the 1,430 px right of its start
 * (bold Verdana averages about 0.7 em a character; a Tagalog title is often longer than its English one).
 */
export function titleSize(title: string): number {
  return Math.max(36, Math.min(84, Math.floor(1430 / (Math.max(1, title.length) * 0.7))));
}

/** `title` and `tag` (the line under the title): in the page's language (the client sends them). */
function banner(name: string, title: string, tag: string): string {
  const a = hue(name);
  const b = hue(name, 70);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="500" viewBox="0 0 1600 500">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${a},70%,22%)"/><stop offset="1" stop-color="hsl(${b},80%,45%)"/></linearGradient>
<radialGradient id="r" cx="0.8" cy="0.3" r="0.6"><stop offset="0" stop-color="hsla(45,100%,70%,0.55)"/><stop offset="1" stop-color="hsla(45,100%,70%,0)"/></radialGradient></defs>
<rect width="1600" height="500" fill="url(#g)"/><rect width="1600" height="500" fill="url(#r)"/>
${Array.from({ length: 14 }, (_, i) => `<circle cx="${(hue(name, i * 37) * 4.4) % 1600}" cy="${(hue(name, i * 53) * 1.3) % 500}" r="${8 + (i % 5) * 9}" fill="hsla(${hue(name, i * 11)},90%,75%,0.18)"/>`).join('')}
<text x="110" y="270" font-family="Verdana,Arial,sans-serif" font-size="${titleSize(title)}" font-weight="700" fill="#fff">${esc(title)}</text>
<text x="114" y="335" font-family="Verdana,Arial,sans-serif" font-size="30" fill="hsla(45,100%,80%,0.95)">${esc(tag)}</text></svg>`;
}

/** Language-neutral: the initials and the (proper) name only, no words or codes that would need translating. */
function tile(name: string): string {
  const a = hue(name);
  const b = hue(name, 50);
  const initials = name.split(/\s+/).map((w) => w[0] ?? '').join('').slice(0, 3).toUpperCase();
  return `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300" viewBox="0 0 300 300">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${a},75%,35%)"/><stop offset="1" stop-color="hsl(${b},85%,55%)"/></linearGradient></defs>
<rect width="300" height="300" rx="28" fill="url(#g)"/><circle cx="150" cy="125" r="78" fill="hsla(0,0%,100%,0.16)"/>
<text x="150" y="150" text-anchor="middle" font-family="Verdana,Arial,sans-serif" font-size="64" font-weight="700" fill="#fff">${esc(initials)}</text>
<text x="150" y="262" text-anchor="middle" font-family="Verdana,Arial,sans-serif" font-size="22" fill="#fff">${esc(name.slice(0, 22))}</text></svg>`;
}

function send(res: Response, svg: string) {
  res.setHeader('Content-Type', 'image/svg+xml; charset=utf-8');
  res.setHeader('Cache-Control', 'public, max-age=86400');
  res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'self'");
  res.send(svg);
}

/** The demo logo of a site: its initial in a gold coin and its name, the width fitted to the name. */
function logo(name: string): string {
  const text = name.slice(0, 24);
  const width = Math.max(220, 62 + text.length * 16 + 6);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="56" viewBox="0 0 ${width} 56">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#f7d774"/><stop offset="1" stop-color="#d59b2d"/></linearGradient></defs>
<circle cx="28" cy="28" r="22" fill="url(#g)"/><text x="28" y="37" text-anchor="middle" font-family="Verdana,Arial,sans-serif" font-size="24" font-weight="700" fill="#1b1b2f">${esc(text.slice(0, 1).toUpperCase())}</text>
<text x="62" y="38" font-family="Verdana,Arial,sans-serif" font-size="26" font-weight="700" fill="url(#g)">${esc(text)}</text></svg>`;
}

export function mountSvgArt(app: Express) {
  app.get('/img/banner/:name.svg', (req: Request, res: Response) => {
    const name = label(req.params.name);
    send(res, banner(name, label(req.query.t) || name, label(req.query.tag) || 'DEMO PORTAL'));
  });
  app.get('/img/game/:vendor/:code.svg', (req: Request, res: Response) => {
    send(res, tile(label(req.query.n) || label(req.params.code)));
  });
  app.get('/img/vendor/:vendor.svg', (req: Request, res: Response) => {
    send(res, tile(label(req.query.n) || label(req.params.vendor)));
  });
  // The demo logo: the site's name (`n`, LuckyPeso by default) beside its initial. The second demo
  // merchant's brand points here with ?n=LuckyDong (it showed the LuckyPeso logo on its own site).
  app.get('/img/logo.svg', (req: Request, res: Response) => {
    send(res, logo(label(req.query.n).trim() || 'LuckyPeso'));
  });
}
