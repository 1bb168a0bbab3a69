import type { Express, NextFunction, Request, Response } from 'express';
import { OPS_PREFIX, opsCalls, ZAuditExportQuery } from '@portal/contracts/api/ops';
import type { WithdrawalStatus } from '@portal/contracts/api/cashier';
import type { Db } from '../../db/db.ts';
import { iso } from '../../db/iso.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import { tokenCookie } from '../../app/token-cookie.ts';
import type { MerchantDirectory } from '../merchants/merchant-directory.ts';
import { balanceOf, transfer } from '../wallet/ledger.ts';
import { toDeposit, type DepositRow, type Deposits } from '../cashier/deposits.ts';
import { WITHDRAWAL_SELECT, toWithdrawal, type WithdrawalRow, type Withdrawals } from '../cashier/withdrawals.ts';
import { readManualBank, saveManualBank, saveSettings, settingsOf } from '../cashier/settings.ts';
import { audit, type Operator, type Operators } from './operators.ts';
import { mountOpsAgentRoutes } from './agents-routes.ts';
import { mountOpsPlatformRoutes } from './platform-routes.ts';
import { mountOpsPlayerRoutes } from './players-ops.ts';
import { mountOpsBrandRoutes } from './brand-ops.ts';
import { mountOpsProviderRoutes } from './providers-ops.ts';
import type { Rg } from '../rg/rg-service.ts';
import { createSiteOps } from './site-ops.ts';
import { createGamesOps } from './games-ops.ts';
import { auditCsv, auditWhere, type AuditFilter } from './audit-trail.ts';
import { createOpsRouter, gateOperator, type OpsCtx } from './ops-router.ts';

const toOpsDeposit = (r: DepositRow & { account: string }) => ({ ...toDeposit(r), memberId: r.member_id, account: r.account, failureReason: r.failure_reason });
const toOpsWithdrawal = (r: WithdrawalRow & { account?: string }) => ({
  ...toWithdrawal(r), memberId: r.member_id, account: r.account ?? '', payoutReference: r.payout_reference, fullAccountNumber: r.account_number,
});
/** What an audit row keeps of a withdrawal or deposit: its state, not the whole row. */
const wState = (w: WithdrawalRow) => ({ status: w.status, amount: w.amount, reason: w.reason, payoutReference: w.payout_reference, receivedAmount: w.received_amount });
const dState = (d: DepositRow) => ({ status: d.status, amount: d.amount, failureReason: d.failure_reason, transferId: d.transfer_id });

/**
 * The operator back office under /ops/api: its own router, JSON envelope, and operator sessions
 * (a member token is not an operator token: 401). Every change writes an audit row in the same
 * transaction. An operator whose password must change can only change it (or sign out).
 */
/** What the back office needs of the accounts module. */
export type MemberAccounts = { disable(memberId: number): Promise<void>; enable(memberId: number): Promise<void> };

export function mountOpsRoutes(app: Express, deps: { db: Db; merchants: MerchantDirectory; operators: Operators; deposits: Deposits; withdrawals: Withdrawals; accounts: MemberAccounts; checkResponses: boolean; regionHeader?: string | null; rg?: Rg | null; providers?: { sms: boolean; mail: boolean };
  /** Game providers' launch URLs must be https (production); false on a development server. */
  launchHttpsOnly?: boolean }) {
  const { db, operators, deposits, withdrawals } = deps;
  const site = createSiteOps({ db, merchants: deps.merchants, regionHeader: deps.regionHeader ?? null, ...(deps.providers ? { providers: deps.providers } : {}) });
  const gamesOps = createGamesOps(db);
  const UNGATED = new Set([opsCalls.changePassword.path, opsCalls.logout.path, opsCalls.me.path, opsCalls.keepSession.path]);
  // Enrolment happens after the password change, before anything else.
  const ENROLMENT = new Set([opsCalls.totpSetup.path, opsCalls.totpConfirm.path]);
  // The operator's token across reloads, never in browser storage (see tokenCookie).
  const OPS_COOKIE = tokenCookie('portal_ops', opsCalls.keepSession.path);
  const opsCtx = (req: Request) => (req as Request & { ops: OpsCtx }).ops;

  const ops = createOpsRouter(deps, {
    prefix: OPS_PREFIX,
    // The session's own calls: login has no gate; an operator whose password must change can only change it (or sign out).
    authorize: async (req, def, permission) => {
      const ctx = opsCtx(req);
      if (def.auth) {
        if (ENROLMENT.has(def.path)) {
          if (!ctx.operator) throw new AppError(ErrorCode.UNAUTHORIZED);
          if (ctx.operator.mustChangePassword) throw new AppError(ErrorCode.PASSWORD_CHANGE_REQUIRED);
        } else {
          await gateOperator(db, ctx.operator, permission, { method: def.method, path: def.path, ungated: UNGATED.has(def.path) });
        }
      }
      return ctx;
    },
  });
  const { router, call } = ops;
  // Every request under /ops/api has a merchant (UNKNOWN_MERCHANT otherwise), even one no route answers.
  router.use(async (req: Request, _res: Response, next: NextFunction) => {
    try {
      (req as Request & { ops: OpsCtx }).ops = await ops.resolve(req);
      next();
    } catch (err) {
      next(err);
    }
  });

  // ---- session ----
  call(opsCalls.login, null, async ({ body, ctx }) => {
    const { token, operator } = await operators.login(ctx.merchant.code, body.username, body.password, ctx.ip, body.totp);
    return { token, username: operator.username, roles: operator.roles, mustChangePassword: operator.mustChangePassword, totpEnrolled: operator.totpEnrolled, isPlatform: operator.isPlatform === true };
  });
  call(opsCalls.me, null, async ({ ctx }) => ({
    username: ctx.operator.username, roles: ctx.operator.roles, mustChangePassword: ctx.operator.mustChangePassword, totpEnrolled: ctx.operator.totpEnrolled, isPlatform: ctx.operator.isPlatform === true,
  }));
  call(opsCalls.totpSetup, null, async ({ ctx }) => operators.totpSetup(ctx.operator, ctx.merchant.brand.siteName || ctx.merchant.name));
  call(opsCalls.totpConfirm, null, async ({ ctx, body }) => {
    await operators.totpConfirm(ctx.operator, body.code);
    return { enrolled: true as const };
  });
  call(opsCalls.logout, null, async ({ ctx, req }) => {
    await operators.logout(ctx.operator, ctx.token!);
    OPS_COOKIE.clear(req, req.res!);
    return {};
  });
  call(opsCalls.keepSession, null, async ({ ctx, req }) => {
    OPS_COOKIE.keep(req, req.res!, ctx.token!);
    return {};
  });
  call(opsCalls.restoreSession, null, async ({ ctx, req }) => OPS_COOKIE.restore(req, req.res!, ctx.merchant.code, (token) => operators.resolve(token)));
  call(opsCalls.changePassword, null, async ({ ctx, body }) => {
    if (body.newPassword !== body.confirmNewPassword) throw new AppError(ErrorCode.PASSWORD_MISMATCH);
    await operators.changePassword(ctx.operator, ctx.token!, body.oldPassword, body.newPassword);
    return { changed: true as const };
  });

  // ---- deposits ----
  const DEPOSIT_SELECT = 'SELECT d.*, m.account FROM deposits d JOIN members m ON m.id = d.member_id';
  call(opsCalls.deposits, 'deposits.read', async ({ ctx, query }) => {
    const r = await db.query<DepositRow & { account: string; total: number }>(
      `${DEPOSIT_SELECT.replace('SELECT d.*', 'SELECT d.*, count(*) OVER ()::int AS total')}
       WHERE d.merchant_code = $1 AND d.status = $2 AND ($3::text IS NULL OR d.provider = $3) ORDER BY d.id LIMIT $4 OFFSET $5`,
      [ctx.merchant.code, query.status, query.provider ?? null, query.pageSize, (query.pageNo - 1) * query.pageSize],
    );
    return { list: r.rows.map(toOpsDeposit), pageNo: query.pageNo, pageSize: query.pageSize, total: r.rows[0]?.total ?? 0 };
  });
  const decide = async (ctx: OpsCtx & { operator: Operator }, id: number, to: 'paid' | 'rejected', reason: string | null, note?: string) => {
    await db.tx(async (tx) => {
      const r = await deposits.decideManual(tx, ctx.merchant.code, id, to, reason);
      if (r.changed) await audit(tx, ctx.operator, to === 'paid' ? 'deposit.confirm' : 'deposit.reject', { type: 'deposit', id }, dState(r.before), { ...dState(r.after), ...(note ? { note } : {}) });
    });
    return toOpsDeposit((await db.query<DepositRow & { account: string }>(`${DEPOSIT_SELECT} WHERE d.id = $1`, [id])).rows[0]!);
  };
  call(opsCalls.confirmDeposit, 'deposits.decide', async ({ ctx, body, id }) => decide(ctx, id, 'paid', null, body.note));
  call(opsCalls.rejectDeposit, 'deposits.decide', async ({ ctx, body, id }) => decide(ctx, id, 'rejected', body.reason));

  // ---- withdrawals ----
  const W_SELECT = `${WITHDRAWAL_SELECT.replace('FROM withdrawals w', ', m.account FROM withdrawals w JOIN members m ON m.id = w.member_id')}`;
  const oneWithdrawal = async (merchant: string, id: number) => {
    const r = await db.query<WithdrawalRow & { account: string }>(`${W_SELECT} WHERE w.id = $1 AND w.merchant_code = $2`, [id, merchant]);
    if (!r.rows[0]) throw new AppError(ErrorCode.NOT_FOUND);
    return toOpsWithdrawal(r.rows[0]);
  };
  call(opsCalls.withdrawals, 'withdrawals.read', async ({ ctx, query }) => {
    const r = await db.query<WithdrawalRow & { account: string; total: number }>(
      `${W_SELECT.replace('SELECT w.*', 'SELECT w.*, count(*) OVER ()::int AS total')} WHERE w.merchant_code = $1 AND w.status = $2 ORDER BY w.id LIMIT $3 OFFSET $4`,
      [ctx.merchant.code, query.status, query.pageSize, (query.pageNo - 1) * query.pageSize],
    );
    return { list: r.rows.map(toOpsWithdrawal), pageNo: query.pageNo, pageSize: query.pageSize, total: r.rows[0]?.total ?? 0 };
  });
  call(opsCalls.withdrawal, 'withdrawals.read', async ({ ctx, id }) => oneWithdrawal(ctx.merchant.code, id));

  type Action = { action: string; to: WithdrawalStatus; from: readonly WithdrawalStatus[] };
  const step = async (ctx: OpsCtx & { operator: Operator }, id: number, a: Action, extra: { reason?: string | null; payoutReference?: string | null; note?: string | undefined }) => {
    await db.tx(async (tx) => {
      const r = await withdrawals.move(tx, { merchant: ctx.merchant.code, id }, { to: a.to, from: a.from, reason: extra.reason ?? null, payoutReference: extra.payoutReference ?? null });
      if (r.changed) await audit(tx, ctx.operator, a.action, { type: 'withdrawal', id }, wState(r.before), { ...wState(r.after), ...(extra.note ? { note: extra.note } : {}) });
    });
    return oneWithdrawal(ctx.merchant.code, id);
  };
  call(opsCalls.approveWithdrawal, 'withdrawals.decide', async ({ ctx, id, body }) => step(ctx, id, { action: 'withdrawal.approve', to: 'approved', from: ['requested'] }, { note: body.note }));
  call(opsCalls.rejectWithdrawal, 'withdrawals.decide', async ({ ctx, id, body }) => step(ctx, id, { action: 'withdrawal.reject', to: 'rejected', from: ['requested', 'approved'] }, { reason: body.reason }));
  call(opsCalls.payWithdrawal, 'withdrawals.decide', async ({ ctx, id, body }) => step(ctx, id, { action: 'withdrawal.paid', to: 'paid', from: ['approved'] }, { payoutReference: body.payoutReference ?? null }));
  call(opsCalls.unknownWithdrawal, 'withdrawals.decide', async ({ ctx, id, body }) => step(ctx, id, { action: 'withdrawal.unknown', to: 'held', from: ['approved'] }, { reason: body.reason }));
  call(opsCalls.reconcileWithdrawal, 'withdrawals.decide', async ({ ctx, id, body }) =>
    body.outcome === 'paid'
      ? step(ctx, id, { action: 'withdrawal.reconcile_paid', to: 'paid', from: ['held'] }, { note: body.note, payoutReference: body.payoutReference ?? null })
      : step(ctx, id, { action: 'withdrawal.reconcile_failed', to: 'rejected', from: ['held'] }, { reason: body.note }));

  router.get(opsCalls.withdrawalProofPath.slice(OPS_PREFIX.length), ops.handle(async (req, res) => {
    const ctx = opsCtx(req);
    await gateOperator(db, ctx.operator, 'withdrawals.read', { method: 'GET', path: opsCalls.withdrawalProofPath });
    const id = Number(req.params.id);
    const n = Number(req.params.n);
    if (!Number.isSafeInteger(id) || !Number.isSafeInteger(n) || n < 0 || n > 10) throw new AppError(ErrorCode.NOT_FOUND);
    const p = await withdrawals.proof(ctx.merchant.code, id, n);
    if (!p) throw new AppError(ErrorCode.NOT_FOUND);
    res.set({ 'Content-Type': p.content_type, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'private, no-store', 'Content-Disposition': 'inline' });
    res.end(Buffer.from(p.data));
  }));

  // ---- adjustments, settings, audit ----
  call(opsCalls.adjust, 'balance.adjust', async ({ ctx, body }) => {
    const m = (await db.query<{ id: number; account: string }>('SELECT id, account FROM members WHERE merchant_code = $1 AND account_lower = $2', [ctx.merchant.code, body.account.toLowerCase()])).rows[0];
    if (!m) throw new AppError(ErrorCode.USER_NOT_FOUND);
    return db.tx(async (tx) => {
      const before = await balanceOf(tx, m.id, ctx.merchant.currency);
      const credit = body.amount > 0;
      const t = await transfer(tx, {
        merchant: ctx.merchant.code, currency: ctx.merchant.currency, key: `adjustment:${ctx.operator.id}:${body.requestId}`, kind: 'adjustment',
        debit: credit ? { system: 'adjustment' } : { member: m.id }, credit: credit ? { member: m.id } : { system: 'adjustment' },
        amount: Math.abs(body.amount), memo: { ref: `A-${body.requestId}`, reason: body.reason, operator: ctx.operator.username },
      });
      const after = await balanceOf(tx, m.id, ctx.merchant.currency);
      if (!t.replayed) {
        await audit(tx, ctx.operator, 'balance.adjust', { type: 'member', id: m.id }, { balance: before.balance, available: before.available },
          { balance: after.balance, available: after.available, amount: body.amount, reason: body.reason, transferId: t.transferId, account: m.account });
      }
      return { transferId: String(t.transferId), memberId: m.id, balance: after.balance, available: after.available, replayed: t.replayed };
    });
  });
  // Whoever may adjust sees the adjustments made (balance.adjust: administrator and finance), from the ledger.
  call(opsCalls.adjustments, 'balance.adjust', async ({ ctx, query }) => {
    const r = await db.query<{ id: string; created_at: Date | string; amount: string; memo: { ref?: string; reason?: string; operator?: string }; member_id: string; account: string; credited: boolean; total: number }>(
      `SELECT t.id::text, t.created_at, t.amount::text, t.memo, m.id::text AS member_id, m.account, (ca.member_id IS NOT NULL) AS credited, count(*) OVER ()::int AS total
         FROM ledger_transfers t
         JOIN ledger_accounts ca ON ca.id = t.credit_account_id
         JOIN ledger_accounts da ON da.id = t.debit_account_id
         JOIN members m ON m.id = COALESCE(ca.member_id, da.member_id)
        WHERE t.merchant_code = $1 AND t.kind = 'adjustment'
        ORDER BY t.id DESC LIMIT $2 OFFSET $3`,
      [ctx.merchant.code, query.pageSize, (query.pageNo - 1) * query.pageSize]);
    return {
      list: r.rows.map((x) => ({
        transferId: x.id, at: iso(x.created_at), memberId: Number(x.member_id), account: x.account, amount: (x.credited ? 1 : -1) * Number(x.amount),
        reason: x.memo.reason ?? '', operator: x.memo.operator ?? '', reference: x.memo.ref ?? '',
      })),
      pageNo: query.pageNo, pageSize: query.pageSize, total: r.rows[0]?.total ?? 0,
    };
  });
  call(opsCalls.memberStatus, 'members.status', async ({ ctx, body, id }) => {
    const m = (await db.query<{ id: number; account: string; status: 'active' | 'disabled' }>(
      'SELECT id, account, status FROM members WHERE id = $1 AND merchant_code = $2', [id, ctx.merchant.code])).rows[0];
    if (!m) throw new AppError(ErrorCode.USER_NOT_FOUND);
    if (m.status !== body.status) {
      // Disabling revokes every session and closes the member's sockets on every node.
      if (body.status === 'disabled') await deps.accounts.disable(m.id);
      else await deps.accounts.enable(m.id);
      await db.tx((tx) => audit(tx, ctx.operator, body.status === 'disabled' ? 'member.disable' : 'member.enable', { type: 'member', id: m.id },
        { status: m.status }, { status: body.status, reason: body.reason }));
    }
    return { memberId: m.id, account: m.account, status: body.status };
  });
  const bankOpts = { demoBank: deposits.demoBank };
  call(opsCalls.settings, 'cashier.settings.read', async ({ ctx }) => ({
    ...(await settingsOf(db, ctx.merchant.code)),
    manualBank: await readManualBank(db, ctx.merchant.code, bankOpts),
  }));
  call(opsCalls.updateSettings, 'cashier.settings.update', async ({ ctx, body }) => {
    return db.tx(async (tx) => {
      await tx.query('SELECT code FROM merchants WHERE code = $1 FOR UPDATE', [ctx.merchant.code]);
      const before = { ...(await settingsOf(tx, ctx.merchant.code)), manualBank: await readManualBank(tx, ctx.merchant.code, bankOpts) };
      const next = { ...before, ...Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) } as typeof before;
      if (next.depositMax < next.depositMin || next.withdrawMax < next.withdrawMin || next.withdrawDailyMax < next.withdrawMax) {
        throw new AppError(ErrorCode.VALIDATION, 'Each maximum must be at least its minimum, and the daily maximum at least the per-request maximum');
      }
      const { manualBank, ...limits } = next;
      await saveSettings(tx, ctx.merchant.code, limits);
      if (body.manualBank !== undefined) await saveManualBank(tx, ctx.merchant.code, manualBank, bankOpts);
      await audit(tx, ctx.operator, 'settings.update', { type: 'merchant', id: ctx.merchant.code }, before, next);
      return next;
    });
  });
  call(opsCalls.audit, 'audit.read', async ({ ctx, query }) => {
    const w = auditWhere(ctx.merchant.code, query as AuditFilter);
    const r = await db.query<{ id: number; operator_username: string; action: string; target_type: string; target_id: string; before: unknown; after: unknown; at: Date | string; total: number }>(
      `SELECT *, count(*) OVER ()::int AS total FROM audit_log WHERE ${w.sql} ORDER BY id DESC LIMIT $${w.args.length + 1} OFFSET $${w.args.length + 2}`,
      [...w.args, query.pageSize, (query.pageNo - 1) * query.pageSize],
    );
    return {
      list: r.rows.map((a) => ({
        id: String(a.id), operator: a.operator_username, action: a.action, targetType: a.target_type, targetId: a.target_id,
        before: a.before, after: a.after, at: (a.at instanceof Date ? a.at : new Date(a.at)).toISOString(),
      })),
      pageNo: query.pageNo, pageSize: query.pageSize, total: r.rows[0]?.total ?? 0,
    };
  });
  router.get(opsCalls.auditExportPath.slice(OPS_PREFIX.length), async (req: Request, res: Response, next: NextFunction) => {
    try {
      const ctx = opsCtx(req);
      await gateOperator(db, ctx.operator, 'audit.read', { method: 'GET', path: opsCalls.auditExportPath });
      await auditCsv(db, ctx.merchant.code, ops.parse(ZAuditExportQuery, req.query, 'query'), res);
    } catch (err) {
      if (res.headersSent) res.destroy(err as Error);
      else next(err);
    }
  });

  // ---- operators (administrators) ----
  call(opsCalls.operators, 'operators.manage', async ({ ctx }) => ({ list: await operators.list(ctx.merchant.code) }));
  call(opsCalls.createOperator, 'operators.manage', async ({ ctx, body }) => operators.create(ctx.operator, body.username, body.roles));
  call(opsCalls.updateOperator, 'operators.manage', async ({ ctx, body, id }) => operators.update(ctx.operator, id, body));

  // ---- site settings (maintenance, blocked addresses and regions, module flags, whitelabel, security) ----
  call(opsCalls.site, 'site.read', async ({ ctx }) => site.read(ctx.merchant.code));
  call(opsCalls.updateSite, 'site.update', async ({ ctx, body }) => site.update(ctx.operator, ctx.merchant.code, body));

  // ---- vendors and games (maintenance, order, hot games) ----
  call(opsCalls.vendors, 'games.read', async ({ ctx }) => gamesOps.vendors(ctx.merchant.code));
  call(opsCalls.updateVendor, 'games.manage', async ({ ctx, body }) => gamesOps.updateVendor(ctx.operator, ctx.merchant.code, body));
  call(opsCalls.games, 'games.read', async ({ ctx, query }) => gamesOps.games(ctx.merchant.code, query));
  call(opsCalls.updateGame, 'games.manage', async ({ ctx, body, id }) => gamesOps.updateGame(ctx.operator, ctx.merchant.code, id, body));

  mountOpsAgentRoutes(call, { db });
  mountOpsPlatformRoutes(call, { db, merchants: deps.merchants });
  mountOpsPlayerRoutes(call, { db, rg: deps.rg ?? null });
  mountOpsBrandRoutes(call, { db, merchants: deps.merchants });
  mountOpsProviderRoutes(call, { db, httpsOnly: deps.launchHttpsOnly ?? true });

  ops.mount(app, { notFound: true });
}
