import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { z } from 'zod';
import { HOUSE_API, HOUSE_GAME_CODES, HOUSE_SESSION_HEADER, houseCalls, type THouseGameCode } from '@portal/contracts/api/house';
import type { CallDef } from '@portal/contracts/api/envelope';
import { AppError, ErrorCode } from '../../app/errors.ts';
import { refuseNulInBody, sendError, zodDetails } from '../../app/http.ts';
import { tokenCookie } from '../../app/token-cookie.ts';
import type { Merchant, MerchantDirectory } from '../merchants/merchant-directory.ts';
import type { House } from './house-service.ts';
import type { BaccaratTable } from './house-table.ts';
import type { PvpTable } from './pvp-table.ts';

type Ctx = { merchant: Merchant; session: string | undefined };

/**
 * /house/api/*: the game page's API. The merchant comes from the host or X-Merchant-Code, the
 * house session from X-House-Session; bodies are parsed by the contract, failures are the envelope.
 */
export function mountHouseRoutes(app: Express, deps: { house: House; baccarat: BaccaratTable; pvp: PvpTable; merchants: MerchantDirectory; checkResponses: boolean }) {
  const { house } = deps;
  const router = express.Router();
  router.use(express.json({ limit: 4 * 1024, strict: true }));
  router.use(refuseNulInBody);
  // The game page's session across a reload, never in browser storage: an HttpOnly cookie set when
  // a session opens and sent only to the state call, which answers the session to the page's memory.
  // One per game as well, so the page of one game never restores another game's session.
  const SESSION_COOKIE = tokenCookie('portal_house', houseCalls.state.path);
  const GAME_COOKIES = new Map(HOUSE_GAME_CODES.map((g) => [g, tokenCookie(`portal_house_${g}`, houseCalls.state.path)]));
  const stateCookie = (req: Request, game: unknown) => {
    const kept = typeof game === 'string' ? GAME_COOKIES.get(game as THouseGameCode) : undefined;
    return (kept ? kept.read(req) : SESSION_COOKIE.read(req)) ?? undefined;
  };
  const on = <B extends z.ZodType, V extends z.ZodType>(def: CallDef<undefined, B, V>, handler: (ctx: Ctx, body: z.infer<B>) => Promise<z.infer<V>>) => {
    router.post(def.path.slice(HOUSE_API.length), async (req: Request, res: Response, next: NextFunction) => {
      try {
        const header = req.headers['x-merchant-code'];
        const merchant = await deps.merchants.resolve({ host: req.hostname, code: typeof header === 'string' ? header : undefined });
        if (!merchant) throw new AppError(ErrorCode.UNKNOWN_MERCHANT);
        const parsed = def.body!.safeParse(req.body ?? {});
        if (!parsed.success) throw new AppError(ErrorCode.VALIDATION, 'Invalid body', zodDetails(parsed.error));
        const sent = req.headers[HOUSE_SESSION_HEADER];
        const session = typeof sent === 'string' ? sent : def.path === houseCalls.state.path ? stateCookie(req, (parsed.data as { game?: unknown }).game) : undefined;
        const value = await handler({ merchant, session }, parsed.data);
        if (def.path === houseCalls.open.path || def.path === houseCalls.freePlay.path) {
          const opened = value as { session: string; game: THouseGameCode };
          SESSION_COOKIE.keep(req, res, opened.session);
          GAME_COOKIES.get(opened.game)?.keep(req, res, opened.session);
        }
        if (deps.checkResponses) {
          const check = def.value.safeParse(value);
          if (!check.success) throw new Error(`response of ${def.path} breaks its contract: ${check.error.message}`);
        }
        res.json({ success: true, value });
      } catch (err) {
        next(err);
      }
    });
  };
  on(houseCalls.open, (c, b) => house.open(c.merchant, b.token, b.game));
  on(houseCalls.freePlay, (c, b) => house.freePlay(c.merchant, b.game));
  on(houseCalls.state, (c, b) => house.state(c.merchant, c.session, b.game));
  on(houseCalls.spin, (c, b) => house.spin(c.merchant, c.session, b.stake));
  on(houseCalls.shoot, (c, b) => house.shoot(c.merchant, c.session, b.fish, b.stake));
  on(houseCalls.rotateSeed, (c, b) => house.rotateSeed(c.merchant, c.session, b.clientSeed));
  on(houseCalls.baccaratState, (c) => deps.baccarat.state(c.merchant, c.session));
  on(houseCalls.baccaratBet, (c, b) => deps.baccarat.bet(c.merchant, c.session, b.side, b.stake));
  on(houseCalls.pvpState, (c) => deps.pvp.state(c.merchant, c.session));
  on(houseCalls.pvpJoin, (c) => deps.pvp.join(c.merchant, c.session));
  router.use((_req: Request, res: Response) => sendError(res, new AppError(ErrorCode.NOT_FOUND)));
  app.use(HOUSE_API, router);
}
