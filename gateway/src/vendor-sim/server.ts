import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import { SIMULATED_GAME_TYPES } from './secrets.ts';
import { SIM_SESSION_MS, SimError, createSimGames } from './sim-games.ts';
import { createSimWallet } from './sim-wallet.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ASSETS = { js: readFileSync(path.join(HERE, 'page/sim.js'), 'utf8'), css: readFileSync(path.join(HERE, 'page/sim.css'), 'utf8') };
export const SIM_SESSION_HEADER = 'x-sim-session';

const ZCode = z.string().min(1).max(64).regex(/^[A-Za-z0-9_.:-]+$/);
const ZLaunch = z.object({
  game: ZCode, vendor: ZCode, operator: ZCode, type: z.enum(SIMULATED_GAME_TYPES), name: z.string().min(1).max(120),
  /** The operator's currency (ISO 4217), for free play's play money and stakes; a real session takes the wallet's. */
  currency: z.string().regex(/^[A-Z]{3}$/).optional(),
  /** The game's minimum bet in the currency's minor units (the catalogue's, sent by the operator's launch); stakes below it are not offered. */
  minBet: z.number().int().positive().max(1_000_000_000).optional(),
});
const ZOpen = ZLaunch.extend({ token: z.string().min(20).max(128) });
const ZPlay = z.object({
  stake: z.number().int().positive(), fish: z.string().max(20).optional(), side: z.string().max(20).optional(),
  /** A lottery ticket's numbers (digits in order, lotto numbers, or the runner). */
  pick: z.array(z.number().int().min(0).max(99)).max(10).optional(),
});

/** What the page sends to take up its game again after a reload (the launch code was single use). */
const ZResume = z.object({ game: ZCode, vendor: ZCode });

/**
 * The cookie that keeps a real-money game session of this browser, one per vendor and game (tabs of
 * two games do not take each other's): HttpOnly (the page's script never holds it), SameSite=Strict,
 * only for the page's API. A reload of the game page takes its session up again from it, as a real
 * vendor's page survives a reload; the launch code in the address was single use.
 */
export const simSessionCookie = (vendor: string, game: string) => `sim_${`${vendor}_${game}`.replace(/[^A-Za-z0-9_]/g, '_')}`;
function cookieOf(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim() || undefined;
  }
  return undefined;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The page's back link: the operator's `lobbyUrl` from the launch (the portal host the player came
 * from), an http(s) URL without credentials; else the PORTAL_URL the simulator was started with.
 */
export function lobbyOf(lobbyUrl: unknown, portalOrigin: string | null): string {
  if (typeof lobbyUrl === 'string' && lobbyUrl.length <= 2048) {
    try {
      const u = new URL(lobbyUrl);
      if ((u.protocol === 'http:' || u.protocol === 'https:') && !u.username && !u.password) return u.href;
    } catch {
      // not a URL: the default below
    }
  }
  return portalOrigin ? `${portalOrigin}/` : '';
}

/**
 * The vendor simulator's HTTP server: the game page (/play, opened by the portal's launch URL), its
 * script and style, and the page's JSON API (/api/*). Its own CSP: scripts and styles only from
 * here, API calls only to here; it may be framed by the portal's origin only.
 */
export function createSimServer(opts: { walletUrl: string; masterSecret: string; portalUrl?: string; log?: { warn(o: unknown, m?: string): void } }) {
  const wallet = createSimWallet({ walletUrl: opts.walletUrl, masterSecret: opts.masterSecret });
  const games = createSimGames(wallet, opts.log);
  const app = express();
  app.disable('x-powered-by');
  const portalOrigin = opts.portalUrl ? new URL(opts.portalUrl).origin : null;
  app.use((_req, res, next) => {
    res.setHeader('content-security-policy', [
      "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'",
      "object-src 'none'", "base-uri 'self'", "form-action 'self'", `frame-ancestors ${portalOrigin ?? "'self'"}`,
    ].join('; '));
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('referrer-policy', 'no-referrer');
    next();
  });
  app.get('/healthz', (_req, res) => res.json({ success: true, value: { status: 'ok', sessions: games.sessionCount() } }));
  app.get('/static/sim.js', (_req, res) => res.type('text/javascript').send(ASSETS.js));
  app.get('/static/sim.css', (_req, res) => res.type('text/css').send(ASSETS.css));
  app.get('/play', (req, res) => {
    const lang = req.query.lang === 'ty' ? 'ty' : 'en';
    res.type('html').send(`<!doctype html><html lang="${lang === 'ty' ? 'tl' : 'en'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(String(req.query.name ?? 'Game'))}</title><link rel="icon" href="data:,"><link rel="stylesheet" href="/static/sim.css"></head>
<body><main id="sim" data-lobby="${esc(lobbyOf(req.query.lobbyUrl, portalOrigin))}"><p class="sim-loading">…</p></main><script src="/static/sim.js"></script></body></html>`);
  });
  const api = express.Router();
  api.use(express.json({ limit: 4 * 1024, strict: true }));
  const session = (req: Request) => {
    const h = req.headers[SIM_SESSION_HEADER];
    return typeof h === 'string' ? h : undefined;
  };
  const on = <T extends z.ZodType>(p: string, schema: T, handler: (body: z.infer<T>, req: Request, res: Response) => Promise<unknown> | unknown) => {
    api.post(p, async (req: Request, res: Response, next: NextFunction) => {
      try {
        const parsed = schema.safeParse(req.body ?? {});
        if (!parsed.success) throw new SimError('VALIDATION', 400, 'Invalid body');
        res.json({ success: true, value: await handler(parsed.data, req, res) });
      } catch (err) {
        next(err);
      }
    });
  };
  on('/open', ZOpen, async (b, req, res) => {
    const v = await games.open(b);
    res.cookie(simSessionCookie(b.vendor, b.game), v.session, { httpOnly: true, sameSite: 'strict', path: '/api', secure: req.secure, maxAge: SIM_SESSION_MS });
    return v;
  });
  on('/resume', ZResume, async (b, req) => {
    const v = await games.state(cookieOf(req, simSessionCookie(b.vendor, b.game)));
    if (v.game !== b.game || v.vendor !== b.vendor) throw new SimError('GAME_TOKEN_INVALID', 401, 'The game session has ended');
    return v;
  });
  on('/free', ZLaunch, (b) => games.free(b));
  on('/state', z.object({}), (_b, req) => games.state(session(req)));
  on('/play', ZPlay, (b, req) => games.play(session(req), b));
  app.use('/api', api);
  app.use((_req: Request, res: Response) => res.status(404).json({ success: false, code: 'NOT_FOUND', message: 'Not found' }));
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (err instanceof SimError) return res.status(err.status).json({ success: false, code: err.code, message: err.message });
    const e = err as { type?: string; status?: number };
    if (e?.type === 'entity.parse.failed') return res.status(400).json({ success: false, code: 'MALFORMED_JSON', message: 'Malformed JSON' });
    if (e?.status && e.status < 500) return res.status(e.status).json({ success: false, code: 'BAD_REQUEST', message: 'Bad request' });
    opts.log?.warn({ err }, 'vendor-sim error');
    res.status(500).json({ success: false, code: 'INTERNAL', message: 'Internal error' });
  });
  const server: Server = createServer(app);
  const timer = setInterval(() => void games.retryPending(), 5_000);
  timer.unref();
  return {
    app, games, server,
    listen(port: number, host = '127.0.0.1'): Promise<number> {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          const a = server.address();
          resolve(typeof a === 'object' && a ? a.port : port);
        });
      });
    },
    close(): Promise<void> {
      clearInterval(timer);
      return new Promise((r) => server.close(() => r()));
    },
  };
}
