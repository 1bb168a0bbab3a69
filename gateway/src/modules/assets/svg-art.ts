import type { Express, Request, Response } from 'express';
import { createHash } from 'node:crypto';
import { MEMBER_ICONS } from '@portal/contracts/api/auth';

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

/**
 * A member's profile picture (contracts MEMBER_ICONS: a01..a12): a face on a coloured disc, each with
 * its own colour, skin tone and accessory. Language-neutral (no text).
 */
export function avatar(icon: string): string | null {
  const n = (MEMBER_ICONS as readonly string[]).indexOf(icon);
  if (n < 0) return null;
  const bg = (n * 137) % 360;
  const skin = ['#f1c27d', '#e0ac69', '#c68642', '#8d5524'][n % 4]!;
  const dark = '#2b2118';
  const accessories = [
    // cap, crown, glasses, bow, headphones, hair
    `<path d="M26 44 Q50 14 74 44 Z" fill="hsl(${(bg + 180) % 360},70%,45%)"/><rect x="46" y="40" width="38" height="6" rx="3" fill="hsl(${(bg + 180) % 360},70%,35%)"/>`,
    `<polygon points="30,36 36,18 44,30 50,14 56,30 64,18 70,36" fill="#f7d774" stroke="#d59b2d" stroke-width="2"/>`,
    `<circle cx="41" cy="54" r="7" fill="none" stroke="${dark}" stroke-width="3"/><circle cx="59" cy="54" r="7" fill="none" stroke="${dark}" stroke-width="3"/><line x1="48" y1="54" x2="52" y2="54" stroke="${dark}" stroke-width="3"/>`,
    `<path d="M50 30 L36 22 L36 38 Z M50 30 L64 22 L64 38 Z" fill="hsl(${(bg + 150) % 360},80%,55%)"/><circle cx="50" cy="30" r="4" fill="hsl(${(bg + 150) % 360},80%,40%)"/>`,
    `<path d="M26 56 Q26 24 50 24 Q74 24 74 56" fill="none" stroke="${dark}" stroke-width="5"/><rect x="20" y="50" width="10" height="16" rx="4" fill="hsl(${(bg + 200) % 360},60%,40%)"/><rect x="70" y="50" width="10" height="16" rx="4" fill="hsl(${(bg + 200) % 360},60%,40%)"/>`,
    `<path d="M28 50 Q28 24 50 24 Q72 24 72 50 Q64 36 50 38 Q36 36 28 50 Z" fill="${dark}"/>`,
  ][n % 6]!;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">
<circle cx="50" cy="50" r="50" fill="hsl(${bg},65%,45%)"/><path d="M18 100 Q18 76 50 76 Q82 76 82 100 Z" fill="hsl(${bg},55%,30%)"/>
<circle cx="50" cy="52" r="24" fill="${skin}"/><circle cx="41" cy="52" r="3" fill="${dark}"/><circle cx="59" cy="52" r="3" fill="${dark}"/>
<path d="M41 62 Q50 70 59 62" fill="none" stroke="${dark}" stroke-width="3" stroke-linecap="round"/>${accessories}</svg>`;
}

export function mountSvgArt(app: Express) {
  app.get('/img/avatar/:icon.svg', (req: Request, res: Response) => {
    const svg = avatar(String(req.params.icon));
    if (!svg) return res.status(404).json({ success: false, code: 'NOT_FOUND', message: 'No such picture' });
    send(res, svg);
  });
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
