import type { NextFunction, Request, Response, Router } from 'express';
import { AppError, ErrorCode } from './errors.ts';
import { sendError } from './http.ts';

/** The parts of Express 5's router layers read here (router 2.x: `match` tests a path, `route.methods` lists a route's verbs). */
type RouteLayer = { match(path: string): boolean; route?: { methods: Record<string, boolean | undefined> } };

/** The methods `router` has a route for at `path` (HEAD with GET, as Express answers it), upper case, sorted. */
export function routeMethods(router: Router, path: string): string[] {
  const found = new Set<string>();
  for (const layer of (router as unknown as { stack: RouteLayer[] }).stack) {
    if (!layer.route || !layer.match(path)) continue;
    for (const [m, on] of Object.entries(layer.route.methods)) {
      if (!on || m === '_all') continue;
      found.add(m.toUpperCase());
      if (m === 'get') found.add('HEAD');
    }
  }
  return [...found].sort();
}

/**
 * What a request no route took answers: 405 METHOD_NOT_ALLOWED with `Allow` (RFC 9110) when its path is
 * served with other methods (`allowed`), else 404 NOT_FOUND. Sets the header; the caller sends the error.
 */
export function notServed(req: Request, res: Response, allowed: readonly string[]): AppError {
  if (allowed.length && !allowed.includes(req.method)) {
    res.setHeader('Allow', allowed.join(', '));
    return new AppError(ErrorCode.METHOD_NOT_ALLOWED);
  }
  return new AppError(ErrorCode.NOT_FOUND);
}

/** The API's last handler: notServed for the routes of `router`, in the error envelope. */
export function notFoundOrNotAllowed(router: Router) {
  return (req: Request, res: Response, _next: NextFunction) => sendError(res, notServed(req, res, routeMethods(router, req.path)));
}
