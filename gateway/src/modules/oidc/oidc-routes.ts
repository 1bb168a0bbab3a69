import type { Express, NextFunction, Request, Response } from 'express';
import type { z } from 'zod';
import { OIDC_ERROR_PARAM, OIDC_PATHS, ZOidcCallbackQuery, ZOidcStartQuery, oidcCalls } from '@portal/contracts/api/auth';
import { AppError, ErrorCode } from '../../app/errors.ts';
import { mountCall, zodDetails } from '../../app/http.ts';
import type { Oidc } from './oidc-service.ts';
import { linkOrigin } from '../merchants/link-origin.ts';

type Opts = { checkResponses: boolean; isProduction: boolean };

/** The redirect_uri's origin: the merchant's own domain (see link-origin.ts), asked only when OIDC_REDIRECT_BASE is unset. */
const originOf = (req: Request, isProduction: boolean) => () =>
  linkOrigin(req.ctx.merchant, { hostname: req.hostname, host: req.host, protocol: req.protocol }, { isProduction });

/** Redirects carry one-time values: never cached, never sent on as a referrer. */
function redirect(res: Response, to: string) {
  res.set('Cache-Control', 'no-store');
  res.set('Referrer-Policy', 'no-referrer');
  res.redirect(302, to);
}

function parseQuery<S extends z.ZodType>(schema: S, req: Request): z.infer<S> {
  const q = schema.safeParse(req.query ?? {});
  if (!q.success) {
    throw new AppError(ErrorCode.VALIDATION, 'Invalid query', zodDetails(q.error));
  }
  return q.data;
}

/**
 * Social sign-in. `config` and `exchange` are ordinary contract calls; `start` and `callback` are
 * browser navigations answered with redirects (bad input still gets the 4xx envelope).
 */
export function mountOidcRoutes(app: Express, oidc: Oidc, opts: Opts) {
  mountCall(app, oidcCalls.oidcConfig, async () => oidc.config(), opts);
  mountCall(app, oidcCalls.oidcExchange, async ({ ctx, body }) => {
    if (!oidc.isEnabled()) throw new AppError(ErrorCode.NOT_AVAILABLE);
    return oidc.exchange(ctx.merchant, body.code, ctx.ip);
  }, opts);
  mountCall(app, oidcCalls.oidcIdentity, async ({ ctx, body }) => {
    if (!oidc.isEnabled()) throw new AppError(ErrorCode.NOT_AVAILABLE);
    return oidc.identity(ctx.merchant, body, ctx.ip);
  }, opts);

  app.get(OIDC_PATHS.start, async (req: Request, res: Response, next: NextFunction) => {
    try {
      const query = parseQuery(ZOidcStartQuery, req);
      redirect(res, await oidc.start(req.ctx.merchant, query.returnTo, originOf(req, opts.isProduction), req.ctx.ip));
    } catch (err) {
      // A person who clicked the button lands back on the site with a message; API callers get the envelope.
      if (err instanceof AppError && err.code !== ErrorCode.VALIDATION && req.accepts(['json', 'html']) === 'html') {
        return redirect(res, `/?${OIDC_ERROR_PARAM}=${err.code}`);
      }
      next(err);
    }
  });

  app.get(OIDC_PATHS.callback, async (req: Request, res: Response, next: NextFunction) => {
    try {
      const query = parseQuery(ZOidcCallbackQuery, req);
      if (!query.code && !query.error) throw new AppError(ErrorCode.VALIDATION, 'Invalid query', [{ path: 'code', message: 'Required' }]);
      // Every parameter the provider sent (iss included) goes to the code grant's checks.
      const params = new URL(req.originalUrl, 'http://portal.invalid').searchParams;
      redirect(res, await oidc.callback(req.ctx.merchant, params, originOf(req, opts.isProduction), req.ctx.ip));
    } catch (err) {
      next(err);
    }
  });
}
