import type { Express, Request, Response, NextFunction } from 'express';
import { z } from 'zod';
import { ZDevOutboxQuery, ZDevWinnerBody, ZReplayBody } from '@portal/contracts/api/dev';
import { MODULE_FLAGS } from '@portal/contracts/domain/constants';
import { cacheAudience, merchantAudience, opsAudience, userAudience, type EventType } from '@portal/contracts/events/events';
import type { Db } from '../../db/db.ts';
import { emitEvent } from '../../bus/outbox.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import { zodDetails } from '../../app/http.ts';
import type { MerchantDirectory } from '../merchants/merchant-directory.ts';
import type { SessionStore } from '../sessions/session-store.ts';
import type { DevSink } from './dev-sink.ts';
import type { Accounts } from '../auth/accounts-service.ts';
import type { PasswordHasher } from '../auth/password-hasher.ts';
import type { BotChecker, Captchas } from '../auth/challenges.ts';
import { systemStatusOf } from '../system/system-routes.ts';
import { isLocalRequest } from './local-only.ts';
import { winnerIcon } from '../games/winner-icons.ts';

const ZSecurityPatch = z
  .object({
    botCheck: z.boolean().optional(),
    captchaAfterFailures: z.number().int().min(0).max(100).optional(),
    passwordMaxAgeDays: z.number().int().min(0).max(3650).optional(),
    newIpVerification: z.boolean().optional(),
  })
  .strict();

const ZMerchantPatch = z
  .object({
    maintenance: z.boolean().optional(),
    maintenanceMessage: z.string().max(500).nullable().optional(),
    blockedIps: z.array(z.string().max(64)).max(100).optional(),
    modules: z.partialRecord(z.enum(MODULE_FLAGS), z.boolean()).optional(),
    security: ZSecurityPatch.optional(),
  })
  .strict();

const ZDevSession = z.object({ account: z.string().regex(/^[a-z0-9_]{3,32}$/), type: z.number().int().min(0).max(99).default(0) }).strict();

/** A QA account with chosen credentials and role (agents, players with mobile or e-mail). */
const ZDevMember = z
  .object({
    account: z.string().regex(/^[A-Za-z0-9_]{3,32}$/),
    password: z.string().min(1).max(64),
    type: z.number().int().min(0).max(99).default(0),
    dialingCode: z.string().regex(/^\d{1,4}$/).optional(),
    mobileNum: z.string().regex(/^\d{7,15}$/).optional(),
    email: z.string().email().optional(),
    invitationCode: z.string().regex(/^[A-Za-z0-9]{4,16}$/).optional(),
    parentAccount: z.string().max(32).optional(),
    mustChangePassword: z.boolean().default(false),
    passwordExpired: z.boolean().default(false),
  })
  .strict();

function parse<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const r = schema.safeParse(input);
  if (!r.success) throw new AppError(ErrorCode.VALIDATION, 'Invalid input', zodDetails(r.error));
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

/** A member the dev helpers made (created_by_dev) on this merchant; anything else is refused. */
async function devMember(db: Db, merchant: string, id: number) {
  const r = await db.query<{ created_by_dev: boolean }>('SELECT created_by_dev FROM members WHERE id = $1 AND merchant_code = $2', [id, merchant]);
  if (!r.rows[0]) throw new AppError(ErrorCode.NOT_FOUND);
  if (!r.rows[0].created_by_dev) throw new AppError(ErrorCode.FORBIDDEN, 'Dev helpers act only on accounts they created');
}

/**
 * QA and test tools, mounted only outside production mode and answering only requests from this
 * machine (isLocalRequest; anyone else gets the 404 of a path that does not exist): read captured
 * codes, replay recorded streams through the outbox (the same path live events take), post a winner,
 * switch maintenance, and sessions for accounts these tools created, never for a real account.
 */
export function mountDevRoutes(
  app: Express,
  deps: { db: Db; sink: DevSink; merchants: MerchantDirectory; sessions: SessionStore; accounts: Accounts; hasher: PasswordHasher; captchas: Captchas; bot: BotChecker },
) {
  const { db, sink, merchants, sessions } = deps;

  app.use('/wps/dev', (req: Request, _res: Response, next: NextFunction) => next(isLocalRequest(req) ? undefined : new AppError(ErrorCode.NOT_FOUND)));

  app.get('/wps/dev/botcheck/:id', wrap(async (req) => {
    const a = (await deps.bot.peek?.(String(req.params.id))) ?? null;
    return { answer: a?.x ?? null, answerY: a?.y ?? null };
  }));
  app.get('/wps/dev/captcha/:key', wrap(async (req) => ({ answer: await deps.captchas.peek(String(req.params.key)) })));

  app.post('/wps/dev/members', wrap(async (req) => {
    const b = parse(ZDevMember, req.body);
    const code = req.ctx.merchant.code;
    const parent = b.parentAccount ? await deps.accounts.findByAccount(code, b.parentAccount) : null;
    if (b.parentAccount && !parent) throw new AppError(ErrorCode.NOT_FOUND, 'parent account not found');
    const r = await db.query<{ id: number }>(
      `INSERT INTO members (merchant_code, account, account_lower, nickname, type, password_hash, must_change_password, password_changed_at,
         password_expires_at, dialing_code, mobile_num, email, invitation_code, parent_id, created_by_dev)
       VALUES ($1, $2, lower($2), $2, $3, $4, $5, now(), CASE WHEN $6 THEN now() - interval '1 day' END, $7, $8, $9, $10, $11, true) RETURNING id`,
      [code, b.account, b.type, await deps.hasher.hash(b.password), b.mustChangePassword, b.passwordExpired,
        b.mobileNum ? (b.dialingCode ?? '63') : null, b.mobileNum ?? null, b.email ?? null, b.invitationCode ?? null, parent?.id ?? null],
    ).catch((err: { code?: string }) => {
      if (err.code === '23505') throw new AppError(ErrorCode.ACCOUNT_EXISTS);
      throw err;
    });
    return { memberId: r.rows[0]!.id };
  }));

  /** QA time travel: a paid withdrawal's auto-receive moment is brought forward (the job then does the rest). */
  app.post('/wps/dev/withdrawals/:id/due', wrap(async (req) => {
    const id = Number(req.params.id);
    if (!Number.isSafeInteger(id) || id <= 0) throw new AppError(ErrorCode.VALIDATION, 'Invalid withdrawal id');
    const owner = await db.query<{ member_id: number }>('SELECT member_id FROM withdrawals WHERE id = $1 AND merchant_code = $2', [id, req.ctx.merchant.code]);
    if (!owner.rows[0]) throw new AppError(ErrorCode.NOT_FOUND);
    await devMember(db, req.ctx.merchant.code, owner.rows[0].member_id);
    const r = await db.query(
      `UPDATE withdrawals SET auto_receive_at = now() - interval '1 second' WHERE id = $1 AND merchant_code = $2 AND status = 'paid' RETURNING id`,
      [id, req.ctx.merchant.code],
    );
    if (!r.rows.length) throw new AppError(ErrorCode.CONFLICT, 'Only a paid withdrawal can be made due');
    return { id };
  }));

  app.post('/wps/dev/members/:id/disable', wrap(async (req) => {
    const id = Number(req.params.id);
    if (!Number.isSafeInteger(id) || id <= 0) throw new AppError(ErrorCode.VALIDATION, 'Invalid member id');
    await devMember(db, req.ctx.merchant.code, id);
    await deps.accounts.disable(id);
    return {};
  }));

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
        // An operator event stays with this merchant's operators: never replayed to its players.
        const audience = e.audience.startsWith('user:')
          ? body.userId !== undefined ? userAudience(body.userId) : e.audience
          : e.audience.startsWith('ops:') ? opsAudience(code) : merchantAudience(code);
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
      // As a real post does: no icon given, the catalogue's for the game named (the row and the event alike).
      const iconUrl = await winnerIcon(tx, code, w.gameName, w.iconUrl ?? null);
      const r = await tx.query<{ id: number; at: Date | string }>(
        'INSERT INTO winners (merchant_code, customer_name, game_name, icon_url, win_amount) VALUES ($1, $2, $3, $4, $5) RETURNING id, at',
        [code, w.customerName, w.gameName, iconUrl, w.winAmount],
      );
      const row = r.rows[0]!;
      const winner = { ...w, iconUrl, id: String(row.id), at: new Date(row.at).toISOString() };
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
        `UPDATE merchants SET maintenance = $2, maintenance_message = $3, blocked_ips = $4, module_flags = $5, security = $6 WHERE code = $1`,
        [m.code, patch.maintenance ?? m.maintenance, patch.maintenanceMessage === undefined ? m.maintenanceMessage : patch.maintenanceMessage,
          patch.blockedIps ?? m.blockedIps, JSON.stringify(modules), JSON.stringify({ ...m.security, ...(patch.security ?? {}) })],
      );
      if (patch.maintenance !== undefined && patch.maintenance !== m.maintenance) {
        await emitEvent(tx, m.code, merchantAudience(m.code), 'system.maintenance', {
          systemStatus: patch.maintenance ? 1 : 0,
          ...(patch.maintenanceMessage ? { message: patch.maintenanceMessage } : {}),
        });
      }
      // Every node drops what it keeps of this merchant (bootstrap cache, merchant directory).
      await emitEvent(tx, m.code, cacheAudience(m.code), 'content.changed', { scopes: ['merchant'] });
    });
    merchants.invalidate();
    const fresh = await merchants.byCode(m.code);
    return { code: m.code, systemStatus: fresh ? systemStatusOf(fresh, req.ctx.ip) : 0 };
  }));

  /**
   * A session for a QA account the dev helpers own: made here on first use (or by POST /wps/dev/members).
   * An existing account they did not make (registered, seeded such as agent01) is refused: this must
   * never be a way into a real account.
   */
  app.post('/wps/dev/sessions', wrap(async (req) => {
    const body = parse(ZDevSession, req.body);
    const code = req.ctx.merchant.code;
    const r = await db.query<{ id: number }>(
      `INSERT INTO members (merchant_code, account, account_lower, nickname, type, created_by_dev) VALUES ($1, $2, lower($2), $2, $3, true)
       ON CONFLICT (merchant_code, account) DO UPDATE SET account = EXCLUDED.account WHERE members.created_by_dev RETURNING id`,
      [code, body.account, body.type],
    ).catch((err: { code?: string }) => {
      // the same name in another case (account_lower): an account these tools did not make
      if (err.code === '23505') return { rows: [] };
      throw err;
    });
    const memberId = r.rows[0]?.id;
    if (memberId === undefined) throw new AppError(ErrorCode.FORBIDDEN, 'Dev sessions are only for accounts the dev helpers created');
    return { memberId, token: await sessions.create(memberId, code) };
  }));
}
