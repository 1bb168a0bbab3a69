import { z } from 'zod';
import { defineCall, ZNoQuery } from './envelope.ts';
import { OPS_PREFIX } from './ops.ts';
import { ZPageQuery, zPage } from './cashier.ts';
import { isVisibleText } from '../domain/visible-text.ts';

/**
 * The affiliate application (spec, section 2: "affiliate application"): a player without an upline asks to
 * become an agent from the agent page; an operator approves it (the player becomes a top agent, as
 * /ops/agents' "make top agent" does) or rejects it with a reason. The player is told by a message and sees
 * the status on the page. One open application per player; a rejected one may apply again.
 */
export const AGENT_CHANNELS = ['social', 'community', 'website', 'offline', 'other'] as const;
export const AGENT_APPLICATION_STATUSES = ['pending', 'approved', 'rejected'] as const;
export const AGENT_APPLICATION_LIMITS = { contactName: 60, contact: 100, audience: 500, reason: 280 } as const;

export const ZAgentApplicationBody = z.object({
  /** The applicant's name as the operator will address them. */
  contactName: z.string().trim().min(2).max(AGENT_APPLICATION_LIMITS.contactName).refine(isVisibleText, 'Required'),
  /** How to reach them: a mobile number, an e-mail, a Telegram or Viber handle. */
  contact: z.string().trim().min(3).max(AGENT_APPLICATION_LIMITS.contact).refine(isVisibleText, 'Required'),
  /** Where they would bring players from. */
  channel: z.enum(AGENT_CHANNELS),
  /** Their audience, in their words (how many, where). */
  audience: z.string().trim().min(10).max(AGENT_APPLICATION_LIMITS.audience).refine(isVisibleText, 'Required'),
}).strict();

export const ZAgentApplication = z.object({
  id: z.string(),
  status: z.enum(AGENT_APPLICATION_STATUSES),
  contactName: z.string(),
  contact: z.string(),
  channel: z.enum(AGENT_CHANNELS),
  audience: z.string(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  /** The operator's reason of a rejection (null otherwise). */
  reason: z.string().nullable(),
});
export type TAgentApplication = z.infer<typeof ZAgentApplication>;

/** The caller's latest application, and whether they may apply now (a player without an upline and without an open one). */
export const ZMyAgentApplication = z.object({ application: ZAgentApplication.nullable(), canApply: z.boolean() });

export const agentApplicationCalls = {
  apply: defineCall({ method: 'POST', path: '/wps/agent/applications', auth: true, body: ZAgentApplicationBody, value: ZAgentApplication }),
  mine: defineCall({ method: 'GET', path: '/wps/agent/applications/mine', auth: true, query: ZNoQuery, value: ZMyAgentApplication }),
};

const p = (s: string) => `${OPS_PREFIX}${s}`;
export const ZOpsAgentApplication = ZAgentApplication.extend({ memberId: z.number().int(), account: z.string(), decidedBy: z.string().nullable() });
export type TOpsAgentApplication = z.infer<typeof ZOpsAgentApplication>;
export const ZOpsAgentApplicationsQuery = ZPageQuery.extend({
  status: z.enum(AGENT_APPLICATION_STATUSES).default('pending'),
  pageNo: z.coerce.number().int().min(1).max(10_000).default(1),
}).strict();
/** Approve, or reject with a reason the player is shown (3 characters at least). */
export const ZOpsAgentApplicationDecision = z.object({
  approve: z.boolean(),
  reason: z.string().trim().max(AGENT_APPLICATION_LIMITS.reason).default(''),
}).strict().refine((b) => b.approve || b.reason.length >= 3, { path: ['reason'], message: 'A rejection needs a reason' });

export const opsAgentApplicationCalls = {
  list: defineCall({ method: 'GET', path: p('/agent-applications'), auth: true, query: ZOpsAgentApplicationsQuery, value: zPage(ZOpsAgentApplication) }),
  decide: defineCall({ method: 'POST', path: p('/agent-applications/:id/decide'), auth: true, body: ZOpsAgentApplicationDecision, value: ZOpsAgentApplication }),
};
