import { z } from 'zod';
import { defineCall, ZNoQuery } from './envelope.ts';

/**
 * Responsible gaming (spec sections 4, 6; issue 13): the player's limits, exclusions, reality checks
 * and session time limit, and the RG events of the audit trail the player may see. Minor units.
 */
export const RG_PREFIX = '/wps/v2/rg';
export const RG_LIMIT_KINDS = ['deposit', 'loss', 'wager'] as const;
export const RG_PERIODS = ['day', 'week', 'month'] as const;
export const RG_SELF_DURATIONS = ['6m', '1y', '5y'] as const;
export const RG_COOLING_DURATIONS = ['24h', '7d', '30d'] as const;
export const RG_EXCLUSION_KINDS = ['self', 'cooling', 'family', 'operator', 'restricted'] as const;
/** Exclusions an operator decided (its own, a relative's request approved, a restricted-list match): an operator may lift them; a player's own run to their end. */
export const RG_OPERATOR_LIFTABLE_KINDS = ['operator', 'family', 'restricted'] as const satisfies readonly (typeof RG_EXCLUSION_KINDS)[number][];
/** The largest limit a player may set (minor units): 1 billion; above it is an absurd value (4xx). */
export const RG_MAX_LIMIT = 1_000_000_000_00;
/** An increase or removal of a limit waits this long, then needs the player's confirmation. */
export const RG_INCREASE_DELAY_MS = 24 * 3600_000;

/** The end of an exclusion of this duration starting at `from` (calendar months and years in UTC). */
export function exclusionEnd(from: Date, duration: (typeof RG_SELF_DURATIONS)[number] | (typeof RG_COOLING_DURATIONS)[number]): Date {
  const d = new Date(from.getTime());
  const day = 86_400_000;
  switch (duration) {
    case '24h': return new Date(from.getTime() + day);
    case '7d': return new Date(from.getTime() + 7 * day);
    case '30d': return new Date(from.getTime() + 30 * day);
    case '6m': d.setUTCMonth(d.getUTCMonth() + 6); return d;
    case '1y': d.setUTCFullYear(d.getUTCFullYear() + 1); return d;
    case '5y': d.setUTCFullYear(d.getUTCFullYear() + 5); return d;
  }
}

export type TRgLimitKind = (typeof RG_LIMIT_KINDS)[number];
export type TRgPeriod = (typeof RG_PERIODS)[number];

export const ZRgLimit = z.object({
  kind: z.enum(RG_LIMIT_KINDS),
  period: z.enum(RG_PERIODS),
  /** What applies now; null: no limit. */
  amount: z.number().int().nullable(),
  /** Used so far in the current period (merchant's calendar). */
  used: z.number().int(),
  /** A requested increase (null amount with pendingRemove: removal), applicable from pendingFrom after the player confirms. */
  pendingAmount: z.number().int().nullable(),
  pendingRemove: z.boolean(),
  pendingFrom: z.string().nullable(),
  periodStart: z.string(),
});
export const ZRgExclusion = z.object({
  id: z.string(),
  kind: z.enum(RG_EXCLUSION_KINDS),
  startsAt: z.string(),
  endsAt: z.string().nullable(),
  revocableFrom: z.string().nullable(),
});
export const ZRgEvent = z.object({ id: z.string(), action: z.string(), by: z.string(), before: z.unknown(), after: z.unknown(), at: z.string() });
export const ZRgState = z.object({
  limits: z.array(ZRgLimit),
  exclusion: ZRgExclusion.nullable(),
  realityCheckMinutes: z.number().int().nullable(),
  sessionLimitMinutes: z.number().int().nullable(),
  /** When the current portal session started (for the reality check and the session limit). */
  sessionStartedAt: z.string().nullable(),
  /** Net result (wins - bets) of the player since the session started. */
  sessionNet: z.number().int(),
  gmtOffsetMinutes: z.number().int(),
});
export type TRgState = z.infer<typeof ZRgState>;

/** A limit value: a positive integer of minor units, at most RG_MAX_LIMIT; null removes the limit. */
export const ZRgLimitBody = z.object({
  kind: z.enum(RG_LIMIT_KINDS),
  period: z.enum(RG_PERIODS),
  amount: z.number().int().positive().max(RG_MAX_LIMIT).nullable(),
}).strict();
export const ZRgLimitValue = z.object({ limit: ZRgLimit, applied: z.boolean() });
export const ZRgConfirmBody = z.object({ kind: z.enum(RG_LIMIT_KINDS), period: z.enum(RG_PERIODS) }).strict();
export const ZRgExcludeBody = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('self'), duration: z.enum(RG_SELF_DURATIONS) }).strict(),
  z.object({ kind: z.literal('cooling'), duration: z.enum(RG_COOLING_DURATIONS) }).strict(),
]);
export const ZRgSessionBody = z.object({
  realityCheckMinutes: z.number().int().min(5).max(240).nullable(),
  sessionLimitMinutes: z.number().int().min(15).max(1440).nullable(),
}).strict();
export const ZRgEventsQuery = z.object({ pageNo: z.coerce.number().int().min(1).max(10_000).default(1), pageSize: z.coerce.number().int().min(1).max(100).default(20) }).strict();

export const rgCalls = {
  state: defineCall({ method: 'GET', path: `${RG_PREFIX}/state`, auth: true, query: ZNoQuery, value: ZRgState }),
  setLimit: defineCall({ method: 'POST', path: `${RG_PREFIX}/limits`, auth: true, body: ZRgLimitBody, value: ZRgLimitValue }),
  confirmLimit: defineCall({ method: 'POST', path: `${RG_PREFIX}/limits/confirm`, auth: true, body: ZRgConfirmBody, value: ZRgLimitValue }),
  exclude: defineCall({ method: 'POST', path: `${RG_PREFIX}/exclusion`, auth: true, body: ZRgExcludeBody, value: ZRgExclusion }),
  session: defineCall({ method: 'POST', path: `${RG_PREFIX}/session`, auth: true, body: ZRgSessionBody, value: ZRgState }),
  events: defineCall({ method: 'GET', path: `${RG_PREFIX}/events`, auth: true, query: ZRgEventsQuery, value: z.object({ list: z.array(ZRgEvent), pageNo: z.number().int(), pageSize: z.number().int(), total: z.number().int() }) }),
};

/** Operator calls (under /ops/api/rg): exclude a member (operator-initiated), lift an exclusion. */
export const ZOpsRgExcludeBody = z.object({
  memberId: z.number().int().positive(),
  /** null: until an operator lifts it. */
  duration: z.enum([...RG_SELF_DURATIONS, ...RG_COOLING_DURATIONS]).nullable(),
  reason: z.string().trim().min(2).max(500),
}).strict();
export const ZOpsRgLiftBody = z.object({ reason: z.string().trim().min(2).max(500) }).strict();
export const opsRgCalls = {
  exclude: defineCall({ method: 'POST', path: '/ops/api/rg/exclusions', auth: true, body: ZOpsRgExcludeBody, value: ZRgExclusion }),
  lift: defineCall({ method: 'POST', path: '/ops/api/rg/exclusions/:id/lift', auth: true, body: ZOpsRgLiftBody, value: z.object({ lifted: z.boolean() }) }),
};

/** Operator exclusion durations (and family exclusion decisions): the self and cooling ones. */
export const RG_OPERATOR_DURATIONS = [...RG_SELF_DURATIONS, ...RG_COOLING_DURATIONS] as const;

// ---------------------------------------------------------------- family exclusion

/** Who may ask for a player's exclusion (Philippine rules): a spouse, a parent or an adult child. */
export const RG_FAMILY_RELATIONSHIPS = ['spouse', 'parent', 'adult_child'] as const;
const text = (min: number, max: number) => z.string().trim().min(min).max(max);
/**
 * A family exclusion request (public form, or support filing it for a caller). The answer never says
 * whether the account exists: an operator with the risk role looks at every request.
 */
export const ZRgFamilyRequestBody = z.object({
  /** The player's username or mobile number, as the requester knows it. */
  playerAccount: text(3, 64),
  requesterName: text(2, 100),
  relationship: z.enum(RG_FAMILY_RELATIONSHIPS),
  /** A phone number or e-mail address the operator can call back. */
  requesterContact: text(5, 100),
  reason: text(10, 1000),
}).strict();
export const ZRgFamilyRequestValue = z.object({ reference: z.string() });
export const ZRgFamilyRequestRow = z.object({
  id: z.number().int(),
  reference: z.string(),
  playerAccount: z.string(),
  memberId: z.number().int().nullable(),
  /** The account the request resolved to (null: no such account). */
  account: z.string().nullable(),
  requesterName: z.string(),
  relationship: z.enum(RG_FAMILY_RELATIONSHIPS),
  requesterContact: z.string(),
  reason: z.string(),
  source: z.enum(['public', 'support']),
  createdBy: z.string(),
  status: z.enum(['pending', 'approved', 'rejected']),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  decisionNote: z.string().nullable(),
  duration: z.string().nullable(),
  createdAt: z.string(),
});
export type TRgFamilyRequestRow = z.infer<typeof ZRgFamilyRequestRow>;
export const ZRgFamilyListQuery = z.object({
  status: z.enum(['pending', 'approved', 'rejected']).optional(),
  pageNo: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
}).strict();
export const ZRgFamilyDecideBody = z.discriminatedUnion('decision', [
  z.object({ decision: z.literal('approve'), duration: z.enum(RG_OPERATOR_DURATIONS).nullable(), note: text(2, 500) }).strict(),
  z.object({ decision: z.literal('reject'), note: text(2, 500) }).strict(),
]);

// ---------------------------------------------------------------- restricted persons

/** Categories of persons the Philippine rules exclude from play. */
export const RG_RESTRICTED_CATEGORIES = ['government_official', 'armed_forces_police', 'licensee_employee', 'national_exclusion'] as const;
/** The largest CSV accepted by an import (characters). */
export const RG_RESTRICTED_MAX_CSV = 2_000_000;
export const ZRgRestrictedImportBody = z.object({
  /** CSV text: full_name, birth_date (YYYY-MM-DD), category, optional id_number; a header line is optional. */
  csv: z.string().min(1).max(RG_RESTRICTED_MAX_CSV),
}).strict();
export const ZRgRestrictedImport = z.object({
  id: z.number().int(),
  rows: z.number().int(),
  importedBy: z.string(),
  importedAt: z.string(),
  /** When the re-check job went through the members (null: not yet). */
  checkedAt: z.string().nullable(),
  matched: z.number().int().nullable(),
  /** Exclusions of members this list no longer names that its re-check lifted (null: not checked yet). */
  lifted: z.number().int().nullable(),
});
export const ZRgRestrictedSummary = z.object({
  current: ZRgRestrictedImport.nullable(),
  byCategory: z.record(z.string(), z.number().int()),
});
export const ZRgRestrictedMatch = z.object({
  id: z.number().int(),
  memberId: z.number().int(),
  account: z.string(),
  category: z.enum(RG_RESTRICTED_CATEGORIES),
  importId: z.number().int(),
  matchedAt: z.string(),
  /** Whether the exclusion the match started is still in force. */
  excluded: z.boolean(),
  /**
   * How it ended, when it did: `list` when a newer list no longer named the member (importId: that
   * list), `operator` when an operator lifted it.
   */
  lift: z.object({ at: z.string(), by: z.enum(['list', 'operator']), importId: z.number().int().nullable() }).nullable(),
});
const ZPage = z.object({ pageNo: z.coerce.number().int().min(1).max(10_000).default(1), pageSize: z.coerce.number().int().min(1).max(100).default(20) }).strict();

export const rgFamilyCall = defineCall({ method: 'POST', path: `${RG_PREFIX}/family-requests`, auth: false, body: ZRgFamilyRequestBody, value: ZRgFamilyRequestValue });

/** Operator calls for restricted persons and family requests (under /ops/api/rg). */
export const opsRgListCalls = {
  restrictedImport: defineCall({ method: 'POST', path: '/ops/api/rg/restricted/import', auth: true, body: ZRgRestrictedImportBody, value: ZRgRestrictedImport }),
  restrictedSummary: defineCall({ method: 'GET', path: '/ops/api/rg/restricted', auth: true, query: z.object({}).strict(), value: ZRgRestrictedSummary }),
  restrictedMatches: defineCall({ method: 'GET', path: '/ops/api/rg/restricted/matches', auth: true, query: ZPage, value: z.object({ list: z.array(ZRgRestrictedMatch), pageNo: z.number().int(), pageSize: z.number().int(), total: z.number().int() }) }),
  familyRequests: defineCall({ method: 'GET', path: '/ops/api/rg/family-requests', auth: true, query: ZRgFamilyListQuery, value: z.object({ list: z.array(ZRgFamilyRequestRow), pageNo: z.number().int(), pageSize: z.number().int(), total: z.number().int() }) }),
  createFamilyRequest: defineCall({ method: 'POST', path: '/ops/api/rg/family-requests', auth: true, body: ZRgFamilyRequestBody, value: ZRgFamilyRequestRow }),
  decideFamilyRequest: defineCall({ method: 'POST', path: '/ops/api/rg/family-requests/:id/decide', auth: true, body: ZRgFamilyDecideBody, value: ZRgFamilyRequestRow }),
};
