import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { statSync } from 'node:fs';
import path from 'node:path';

/** Hashed build output (vite names it `name-HASH.ext` under /assets/): never changes at its URL. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else (index.html, theme-boot.js): revalidated on every use (ETag, 304). */
export const REVALIDATE = 'no-cache';

const HASHED_ASSET = /^\/assets\/(?:.+\/)?[^/]+-[A-Za-z0-9_-]{8,}\.[A-Za-z0-9]+$/;

/** Encodings the build writes beside a file (client/build/precompress.ts), best first. */
const VARIANTS = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;

/** The content codings an Accept-Encoding header accepts (q > 0); `*` accepts any. */
export function acceptedEncodings(header: string | undefined): Set<string> {
  const out = new Set<string>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q && !(Number(q.slice(2)) > 0)) continue;
    out.add(name);
  }
  return out;
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/**
 * Sends one built file: the brotli or gzip variant the build wrote beside it when the browser
 * accepts it (Content-Encoding, `Vary: Accept-Encoding` whenever a variant exists, so a cache
 * never hands compressed bytes to a client that did not ask), else the file itself. Content-Type
 * is the original file's; ETag and Last-Modified are the variant's.
 */
function sendBuilt(req: Request, res: Response, next: NextFunction, file: string, cacheControl: string) {
  const accepted = acceptedEncodings(req.headers['accept-encoding']);
  let chosen = file;
  let hasVariant = false;
  for (const v of VARIANTS) {
    if (!isFile(file + v.suffix)) continue;
    hasVariant = true;
    if (chosen === file && (accepted.has(v.encoding) || accepted.has('*'))) {
      chosen = file + v.suffix;
      res.setHeader('Content-Encoding', v.encoding);
    }
  }
  if (hasVariant) res.vary('Accept-Encoding');
  res.type(path.extname(file));
  res.setHeader('Cache-Control', cacheControl);
  res.sendFile(chosen, { cacheControl: false, dotfiles: 'deny' }, (err?: Error) => {
    if (!err) return;
    if (res.headersSent) return;
    res.removeHeader('Content-Encoding');
    next(err);
  });
}

/**
 * The built client (history-mode SPA) from `dist`: `files` answers GET/HEAD of a file that exists
 * there (not a dotfile, not outside `dist`), precompressed when it can, cached for a year when its
 * name is hashed; `page` answers index.html (no-cache), or 503 when the client is not built.
 */
export function builtClient(dist: string): { files: RequestHandler; page: RequestHandler } {
  const root = path.resolve(dist);
  const indexHtml = path.join(root, 'index.html');
  const files: RequestHandler = (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    let rel: string;
    try {
      rel = decodeURIComponent(req.path);
    } catch {
      return next();
    }
    if (rel.includes('\0') || rel.split('/').some((seg) => seg.startsWith('.'))) return next();
    const file = path.join(root, rel);
    if (!file.startsWith(root + path.sep) || !isFile(file)) return next();
    sendBuilt(req, res, next, file, HASHED_ASSET.test(rel) ? IMMUTABLE : REVALIDATE);
  };
  const page: RequestHandler = (req, res, next) => {
    if (!isFile(indexHtml)) {
      res.status(503).type('text/plain').send('The client is not built yet: run `npm run build`.');
      return;
    }
    sendBuilt(req, res, next, indexHtml, REVALIDATE);
  };
  return { files, page };
}
