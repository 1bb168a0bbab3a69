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
 * The API's last handler: a path the API serves with other methods answers 405 METHOD_NOT_ALLOWED with
 * `Allow` (RFC 9110), any other 404 NOT_FOUND; both in the error envelope.
 */
export function notFoundOrNotAllowed(router: Router) {
  return (req: Request, res: Response, _next: NextFunction) => {
    const allowed = routeMethods(router, req.path);
    if (allowed.length && !allowed.includes(req.method)) {
      res.setHeader('Allow', allowed.join(', '));
      return sendError(res, new AppError(ErrorCode.METHOD_NOT_ALLOWED));
    }
    sendError(res, new AppError(ErrorCode.NOT_FOUND));
  };
}
