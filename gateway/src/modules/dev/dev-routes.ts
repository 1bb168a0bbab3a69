import type { Express, Request, Response, NextFunction } from 'express';
import { z } from 'zod';
import { ZDevOutboxQuery, ZDevWinnerBody, ZReplayBody } from '@portal/contracts/api/dev';
import { MODULE_FLAGS } from '@portal/contracts/domain/constants';
import { merchantAudience, userAudience, type EventType } from '@portal/contracts/events/events';
import type { Db } from '../../db/db.ts';
import { emitEvent } from '../../bus/outbox.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import type { MerchantDirectory } from '../merchants/merchant-directory.ts';
import type { SessionStore } from '../sessions/session-store.ts';
import type { DevSink } from './dev-sink.ts';
import { systemStatusOf } from '../system/system-routes.ts';

const ZMerchantPatch = z
  .object({
    maintenance: z.boolean().optional(),
    maintenanceMessage: z.string().max(500).nullable().optional(),
    blockedIps: z.array(z.string().max(64)).max(100).optional(),
    modules: z.partialRecord(z.enum(MODULE_FLAGS), z.boolean()).optional(),
  })
  .strict();

const ZDevSession = z.object({ account: z.string().regex(/^[a-z0-9_]{3,32}$/), type: z.number().int().min(0).max(99).default(0) }).strict();

function parse<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const r = schema.safeParse(input);
  if (!r.success) throw new AppError(ErrorCode.VALIDATION, 'Invalid input', r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })));
  return r.data;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

type H = (req: Request, res: Response) => Promise<unknown>;
const wrap = (h: H) => async (req: Request, res: Response, next: NextFunction) => {
  try {
    res.json({ success: true, value: await h(req, res) });
  } catch (err) {
    next(err);
  }
};

/**
 * QA and test tools, mounted only outside production mode: read captured codes, replay recorded
 * streams through the outbox (the same path live events take), post a winner, switch maintenance.
 */
export function mountDevRoutes(app: Express, deps: { db: Db; sink: DevSink; merchants: MerchantDirectory; sessions: SessionStore }) {
  const { db, sink, merchants, sessions } = deps;

  app.get('/wps/dev/outbox', wrap(async (req) => {
    const q = parse(ZDevOutboxQuery, req.query);
    return { list: sink.for(q.to) };
  }));

  app.post('/wps/dev/replay', wrap(async (req) => {
    const body = parse(ZReplayBody, req.body);
    const code = req.ctx.merchant.code;
    const sent = await db.tx(async (tx) => {
      const out = [];
      for (const e of body.events) {
        const audience = e.audience.startsWith('user:')
          ? body.userId !== undefined ? userAudience(body.userId) : e.audience
          : merchantAudience(code);
        try {
          // A re-targeted event names its new member inside the payload too.
          const payload = body.userId !== undefined && e.audience.startsWith('user:') && isRecord(e.payload) && 'memberId' in e.payload
            ? { ...e.payload, memberId: body.userId }
            : e.payload;
          out.push(await emitEvent(tx, code, audience, e.type as EventType, payload as never));
        } catch {
          throw new AppError(ErrorCode.VALIDATION, `Recorded event ${e.id} (${e.type}) does not match its schema`);
        }
      }
      return out;
    });
    return { count: sent.length, seqs: sent.map((e) => ({ audience: e.audience, seq: e.seq })) };
  }));

  app.post('/wps/dev/winners', wrap(async (req) => {
    const w = parse(ZDevWinnerBody, req.body);
    const code = req.ctx.merchant.code;
    return db.tx(async (tx) => {
      const r = await tx.query<{ id: number; at: Date | string }>(
        'INSERT INTO winners (merchant_code, customer_name, game_name, icon_url, win_amount) VALUES ($1, $2, $3, $4, $5) RETURNING id, at',
        [code, w.customerName, w.gameName, w.iconUrl, w.winAmount],
      );
      const row = r.rows[0]!;
      const winner = { ...w, id: String(row.id), at: new Date(row.at).toISOString() };
      await emitEvent(tx, code, merchantAudience(code), 'winner.posted', winner);
      return winner;
    });
  }));

  app.post('/wps/dev/merchant', wrap(async (req) => {
    const patch = parse(ZMerchantPatch, req.body);
    const m = req.ctx.merchant;
    const modules = { ...m.modules, ...(patch.modules ?? {}) };
    await db.tx(async (tx) => {
      await tx.query(
        `UPDATE merchants SET maintenance = $2, maintenance_message = $3, blocked_ips = $4, module_flags = $5 WHERE code = $1`,
        [m.code, patch.maintenance ?? m.maintenance, patch.maintenanceMessage === undefined ? m.maintenanceMessage : patch.maintenanceMessage,
          patch.blockedIps ?? m.blockedIps, JSON.stringify(modules)],
      );
      if (patch.maintenance !== undefined && patch.maintenance !== m.maintenance) {
        await emitEvent(tx, m.code, merchantAudience(m.code), 'system.maintenance', {
          systemStatus: patch.maintenance ? 1 : 0,
          ...(patch.maintenanceMessage ? { message: patch.maintenanceMessage } : {}),
        });
      }
    });
    merchants.invalidate();
    const fresh = await merchants.byCode(m.code);
    return { code: m.code, systemStatus: fresh ? systemStatusOf(fresh, req.ctx.ip) : 0 };
  }));

  /** A session for a QA account, until the accounts module brings real sign-in. */
  app.post('/wps/dev/sessions', wrap(async (req) => {
    const body = parse(ZDevSession, req.body);
    const code = req.ctx.merchant.code;
    const r = await db.query<{ id: number }>(
      `INSERT INTO members (merchant_code, account, nickname, type) VALUES ($1, $2, $2, $3)
       ON CONFLICT (merchant_code, account) DO UPDATE SET account = EXCLUDED.account RETURNING id`,
      [code, body.account, body.type],
    );
    const memberId = r.rows[0]!.id;
    return { memberId, token: await sessions.create(memberId, code) };
  }));
}
