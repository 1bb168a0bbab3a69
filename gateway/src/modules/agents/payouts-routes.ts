import type { Express, Request } from 'express';
import { agentPayoutCalls, devAgentSettlementCalls, ZPayoutId, ZSettlementRunBody } from '@portal/contracts/api/agent-payouts';
import { ZStrictContractTerms } from '@portal/contracts/api/agent-contracts';
import type { ContractKind } from '@portal/contracts/domain/agent-contracts';
import { CONTRACT_KINDS } from '@portal/contracts/domain/agent-contracts';
import type { Db } from '../../db/db.ts';
import { mountCall, zodDetails, type RequestContext } from '../../app/http.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import type { AgentContracts } from './contracts-service.ts';
import { createAgentPayouts } from './payouts.ts';
import type { AgentSettlement } from './settlement.ts';

function payoutIdOf(req: Request): number {
  const r = ZPayoutId.safeParse(req.params.id);
  if (!r.success) throw new AppError(ErrorCode.VALIDATION, 'Invalid payout id', [{ path: 'id', message: 'a positive integer' }]);
  return r.data;
}

const RELAY_CALL: Record<ContractKind, typeof agentPayoutCalls.relayDividend> = {
  dividend: agentPayoutCalls.relayDividend,
  dailyWages: agentPayoutCalls.relayDailyWages,
  hourlySalary: agentPayoutCalls.relayHourlySalary,
  realtimeSalary: agentPayoutCalls.relayRealtimeSalary,
};

/**
 * Payouts, statements, disputes, what-if, income and the spec's contract relay names (issue 11).
 * Agent guard as the contract calls: session and non-trial (mountCall), agent type (NON_AGENT); the
 * relay names also need module AGENTPOLICY3 (MODULE_DISABLED otherwise).
 * Outside production also the settlement test clock POST /wps/dev/agent-settlement/run (mount after
 * the dev routes so their loopback guard applies): the jobs' own settleDue at a chosen instant.
 */
export function mountPayoutRoutes(app: Express, deps: { db: Db; contracts: AgentContracts; settlement: AgentSettlement; isProduction: boolean }, opts: { checkResponses: boolean }) {
  const { contracts, settlement } = deps;
  const payouts = createAgentPayouts({ db: deps.db });
  const agent = (ctx: RequestContext) => {
    const s = ctx.session!;
    contracts.requireAgent(ctx.merchant, s.memberType);
    return s.memberId;
  };

  mountCall(app, agentPayoutCalls.list, async ({ ctx, query }) => payouts.list(ctx.merchant, agent(ctx), query), opts);
  mountCall(app, agentPayoutCalls.get, async ({ ctx, req }) => payouts.get(ctx.merchant, agent(ctx), payoutIdOf(req)), opts);
  mountCall(app, agentPayoutCalls.dispute, async ({ ctx, req, body }) => payouts.dispute(ctx.merchant, agent(ctx), payoutIdOf(req), body.reason), opts);
  mountCall(app, agentPayoutCalls.disputes, async ({ ctx, query }) => payouts.disputes(ctx.merchant, agent(ctx), query), opts);
  mountCall(app, agentPayoutCalls.simulate, async ({ ctx, body }) => payouts.simulate(ctx.merchant, agent(ctx), body), opts);
  mountCall(app, agentPayoutCalls.income, async ({ ctx, query }) => payouts.income(ctx.merchant, agent(ctx), query), opts);

  for (const kind of CONTRACT_KINDS) {
    mountCall(app, RELAY_CALL[kind], async ({ ctx, body }) => {
      // The spec's agent contract relays belong to module AGENTPOLICY3 (settlement jobs and /ops do not come through here).
      if (!ctx.merchant.modules.AGENTPOLICY3) throw new AppError(ErrorCode.MODULE_DISABLED);
      const me = agent(ctx);
      const needId = () => {
        if (body.contractId === undefined) throw new AppError(ErrorCode.VALIDATION, 'contractId is required', [{ path: 'contractId', message: 'required for this action' }]);
        return body.contractId;
      };
      /** The caller's own contract of this relay's kind (NOT_IN_TREE otherwise, as the contract calls). */
      const ownOfKind = async () => {
        const id = needId();
        const c = (await deps.db.query<{ kind: ContractKind }>('SELECT kind FROM agent_contracts WHERE id = $1 AND merchant_code = $2 AND (upline_id = $3 OR downline_id = $3)', [id, ctx.merchant.code, me])).rows[0];
        if (!c) throw new AppError(ErrorCode.NOT_IN_TREE);
        if (c.kind !== kind) throw new AppError(ErrorCode.VALIDATION, `Contract ${id} is not a ${kind} contract`, [{ path: 'contractId', message: `not a ${kind} contract` }]);
        return id;
      };
      switch (body.action) {
        case 'list':
          if ((body.pageNo ?? 1) > 1_000_000) throw new AppError(ErrorCode.VALIDATION, 'Invalid body', [{ path: 'pageNo', message: 'at most 1000000' }]);
          return contracts.list(ctx.merchant, me, { pageNo: body.pageNo ?? 1, pageSize: body.pageSize ?? 20, kind, role: body.role });
        case 'offer': {
          if (body.downlineId === undefined) throw new AppError(ErrorCode.VALIDATION, 'downlineId is required', [{ path: 'downlineId', message: 'required to offer' }]);
          const t = ZStrictContractTerms.safeParse({ ...(body.terms ?? {}), kind });
          if (!t.success) throw new AppError(ErrorCode.VALIDATION, 'Invalid terms', zodDetails(t.error));
          return contracts.offer(ctx.merchant, me, { downlineId: body.downlineId, terms: t.data });
        }
        case 'accept':
          return contracts.accept(ctx.merchant, me, await ownOfKind(), body.endContractIds ?? []);
        case 'reject':
          return contracts.reject(ctx.merchant, me, await ownOfKind());
        case 'withdraw':
          return contracts.withdraw(ctx.merchant, me, await ownOfKind());
        case 'terminate':
          return contracts.terminate(ctx.merchant, me, await ownOfKind());
      }
    }, opts);
  }

  if (!deps.isProduction) {
    app.post(devAgentSettlementCalls.run.path, async (req, res, next) => {
      try {
        const b = ZSettlementRunBody.safeParse(req.body ?? {});
        if (!b.success) throw new AppError(ErrorCode.VALIDATION, 'Invalid body', zodDetails(b.error));
        const at = b.data.at ? new Date(b.data.at) : new Date();
        const { settled, failed } = await settlement.settleDue(at, b.data.kind ? [b.data.kind] : CONTRACT_KINDS, [req.ctx.merchant]);
        res.json({ success: true, value: { at: at.toISOString(), settled, failed } });
      } catch (err) {
        next(err);
      }
    });
  }
}
