import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';

/** Hashed build output (vite names it `name-HASH.ext` under /assets/): never changes at its URL. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else (index.html, theme-boot.js): revalidated on every use (ETag, 304). */
export const REVALIDATE = 'no-cache';
/** index.html with boot data: it carries the visitor's address and merchant, so no shared cache keeps it. */
export const REVALIDATE_PRIVATE = 'private, no-cache';

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

/** If-None-Match names this ETag (weak comparison, RFC 9110). */
function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => {
    const v = t.trim();
    return (v.startsWith('W/') ? v.slice(2) : v) === etag;
  });
}

/** Where the boot data goes in index.html: at the end of <head>, before the module scripts run. */
const HEAD_END = '</head>';

/**
 * The built client (history-mode SPA) from `dist`: `files` answers GET/HEAD of a file that exists
 * there (not a dotfile, not outside `dist`), precompressed when it can, cached for a year when its
 * name is hashed; `page` answers index.html (no-cache), or 503 when the client is not built.
 *
 * With `inject`, index.html is sent with what it returns for the request (the boot data element,
 * gateway/src/app/boot-data.ts) placed before `</head>`: compressed per request (brotli 5 or gzip 6),
 * its ETag the hash of the body sent, `Cache-Control: private, no-cache`, `Vary: Accept-Encoding, Host`.
 * When `inject` returns null or fails, the file goes out as built.
 */
export function builtClient(
  dist: string,
  opts: { inject?: (req: Request) => Promise<string | null>; onInjectError?: (err: unknown) => void } = {},
): { files: RequestHandler; page: RequestHandler } {
  const root = path.resolve(dist);
  const indexHtml = path.join(root, 'index.html');
  let template: { mtimeMs: number; text: string } | null = null;
  const templateText = (): string => {
    const st = statSync(indexHtml);
    if (!template || template.mtimeMs !== st.mtimeMs) template = { mtimeMs: st.mtimeMs, text: readFileSync(indexHtml, 'utf8') };
    return template.text;
  };
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
    // index.html by name is the page (with its boot data), not a plain file.
    if (opts.inject && file === indexHtml) return next();
    sendBuilt(req, res, next, file, HASHED_ASSET.test(rel) ? IMMUTABLE : REVALIDATE);
  };
  const sendInjected = (req: Request, res: Response, element: string) => {
    const text = templateText();
    const at = text.indexOf(HEAD_END);
    const html = at < 0 ? text.replace('<body>', `<body>${element}`) : text.slice(0, at) + element + text.slice(at);
    const raw = Buffer.from(html, 'utf8');
    const etag = `"${createHash('sha1').update(raw).digest('base64url')}"`;
    res.vary('Accept-Encoding');
    res.vary('Host');
    res.setHeader('Cache-Control', REVALIDATE_PRIVATE);
    res.setHeader('ETag', etag);
    if (etagMatches(req.headers['if-none-match'], etag)) {
      res.status(304).end();
      return;
    }
    const accepted = acceptedEncodings(req.headers['accept-encoding']);
    let body = raw;
    if (accepted.has('br')) {
      body = brotliCompressSync(raw, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: raw.length } });
      res.setHeader('Content-Encoding', 'br');
    } else if (accepted.has('gzip') || accepted.has('*')) {
      body = gzipSync(raw, { level: 6 });
      res.setHeader('Content-Encoding', 'gzip');
    }
    res.type('html');
    res.setHeader('Content-Length', String(body.length));
    res.status(200);
    if (req.method === 'HEAD') res.end();
    else res.end(body);
  };
  const page: RequestHandler = (req, res, next) => {
    if (!isFile(indexHtml)) {
      res.status(503).type('text/plain').send('The client is not built yet: run `npm run build`.');
      return;
    }
    if (!opts.inject) return sendBuilt(req, res, next, indexHtml, REVALIDATE);
    opts.inject(req).then(
      (element) => {
        if (element === null) return sendBuilt(req, res, next, indexHtml, REVALIDATE);
        sendInjected(req, res, element);
      },
      (err: unknown) => {
        opts.onInjectError?.(err);
        if (!res.headersSent) sendBuilt(req, res, next, indexHtml, REVALIDATE);
      },
    );
  };
  return { files, page };
}
