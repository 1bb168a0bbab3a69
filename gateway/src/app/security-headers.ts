import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { createHash } from 'node:crypto';
import helmet from 'helmet';

/**
 * Where the built client may load from. Everything is same-origin but the embedded video block
 * (YouTube's no-cookie player). The client has no inline script (the theme boot script is a file),
 * and React sets `style` through the CSSOM, which a style-src without 'unsafe-inline' allows.
 */
export const FRAME_SOURCES = ['https://www.youtube-nocookie.com', 'https://www.youtube.com'];

export type SecurityHeaderOptions = {
  isProduction: boolean;
  /** Extra style-src hashes ('sha256-...') for server-rendered pages with one fixed inline style block. */
  styleHashes?: string[];
};

/**
 * Security headers on every response (SPA, API, /ops, /house, static files, images): helmet with a
 * strict CSP. Framing is limited to our own origin (the portal frames its own game pages), the
 * referrer never leaves with a path or query (reset tokens travel in the SPA's query), and HSTS and the
 * CSP's upgrade-insecure-requests are sent only in production on a request that arrived over HTTPS (at
 * the proxy: X-Forwarded-Proto with TRUST_PROXY), since a plain-HTTP portal must not pin or upgrade to HTTPS.
 */
export function securityHeaders(opts: SecurityHeaderOptions): RequestHandler {
  const make = (upgrade: boolean) => helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", ...(opts.styleHashes ?? []).map((h) => `'${h}'`)],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        mediaSrc: ["'self'"],
        frameSrc: ["'self'", ...FRAME_SOURCES],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'self'"],
        // Like HSTS, only on a request that came over HTTPS: on a plain-HTTP page it would send every
        // asset request to https:// (a site reached without TLS would not load at all).
        ...(upgrade ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // The portal embeds YouTube, which refuses to play without a referrer origin: send the origin
    // cross-site, never the path or query.
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    frameguard: { action: 'sameorigin' },
    strictTransportSecurity: false,
    crossOriginEmbedderPolicy: false,
    // Game art and QR codes are fetched by our own pages only.
    crossOriginResourcePolicy: { policy: 'same-origin' },
    xPoweredBy: false,
  });
  const plain = make(false);
  const secure = opts.isProduction ? make(true) : plain;
  const hsts = helmet.strictTransportSecurity({ maxAge: 31_536_000, includeSubDomains: true });
  return (req: Request, res: Response, next: NextFunction) => {
    const overTls = opts.isProduction && req.secure;
    (overTls ? secure : plain)(req, res, (err?: unknown) => {
      if (err) return next(err);
      if (overTls) return hsts(req, res, next);
      next();
    });
  };
}

/** The CSP source expression body ('sha256-...') allowing exactly this inline style text. */
export function styleHash(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}
