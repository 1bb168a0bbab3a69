import { opsAgentCalls } from '@portal/contracts/api/ops-agents';
import type { Db } from '../../db/db.ts';
import type { OpsCall } from './ops-router.ts';
import { mountOpsAgentApplications } from '../agents/applications.ts';
import { opsAgentTree, opsContracts, opsGrantHouseContract, opsMakeTopAgent, opsTerminateContract } from './agents-contracts-ops.ts';

/** The agents section of the back office (issue 11): reading needs `agents.read`, changes `agents.manage`. */
export function mountOpsAgentRoutes(call: OpsCall, deps: { db: Db }) {
  const { db } = deps;
  call(opsAgentCalls.tree, 'agents.read', async ({ ctx, query }) => opsAgentTree(db, ctx.merchant, query));
  call(opsAgentCalls.contracts, 'agents.read', async ({ ctx, query }) => opsContracts(db, ctx.merchant, query));
  call(opsAgentCalls.grantHouseContract, 'agents.manage', async ({ ctx, body }) => opsGrantHouseContract(db, ctx.merchant, ctx.operator, body.memberId, body.terms));
  call(opsAgentCalls.terminate, 'agents.manage', async ({ ctx, body, id }) => opsTerminateContract(db, ctx.merchant, ctx.operator, id, body.reason));
  call(opsAgentCalls.makeTopAgent, 'agents.manage', async ({ ctx, body, id }) => opsMakeTopAgent(db, ctx.merchant, ctx.operator, id, body.reason));
  mountOpsAgentApplications(call, { db });
}
