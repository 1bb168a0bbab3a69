import { z } from 'zod';
import { ZIdInput as ZId } from './ids.ts';
import { defineCall, relayPath, ZNoQuery } from './envelope.ts';
import { GAME_TYPES } from '../domain/constants.ts';
import { MISSION_KINDS, MISSION_PERIODS, MISSION_STATUSES, maxLoginDays } from '../domain/missions.ts';

/**
 * Missions and leaderboard (issue 14; spec sections 2 and 7): the player's missions of the current day
 * and week with progress (MCSFE_getMissionSummaryDetails), the claim of a completed mission's reward, and
 * the leaderboard of valid bets per period (getMissionLeaderboard). Money in minor units.
 */
export const MISSIONS_PREFIX = '/wps/v2/missions';
const ZLang = z.enum(['EN', 'TY']);

export const ZMission = z.object({
  id: z.string(),
  period: z.enum(MISSION_PERIODS),
  kind: z.enum(MISSION_KINDS),
  /** The game type a game_bet mission counts (null for other kinds). */
  gameType: z.string().nullable(),
  title: z.string(),
  /** Minor units for money kinds, a count otherwise. */
  target: z.number().int(),
  progress: z.number().int(),
  rewardAmount: z.number().int(),
  /** Key of the current period this progress belongs to (claims name it). */
  periodKey: z.string(),
  /** When the period ends (the reward can no longer be claimed after it). */
  endsAt: z.string(),
  status: z.enum(MISSION_STATUSES),
});
export type TMission = z.infer<typeof ZMission>;
export const ZMissionSummary = z.object({
  list: z.array(ZMission),
  /** Badge: missions completed in the current periods and not claimed yet. */
  claimable: z.number().int(),
  /** False for players who cannot take part (exclusion in force): progress does not move. */
  eligible: z.boolean(),
});
export const ZMissionSummaryQuery = z.object({ language: ZLang.default('EN') }).strict();
/**
 * A period key names a real period: a calendar day (2026-13-45 was taken as a period that is over),
 * and for a week its Monday (W2026-12-09, a Wednesday, was taken as a week not started yet).
 */
const isPeriodKey = (key: string) => {
  const day = key.replace(/^W/, '');
  const d = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== day) return false;
  return !key.startsWith('W') || d.getUTCDay() === 1;
};
export const ZMissionClaimBody = z.object({
  missionId: ZId,
  periodKey: z.string().regex(/^W?\d{4}-\d{2}-\d{2}$/).refine(isPeriodKey, { message: 'Not a period: a day, or W and the Monday a week starts on' }),
}).strict();
export const ZMissionClaimValue = z.object({ mission: ZMission, claimable: z.number().int(), transferId: z.string() });

export const ZLeaderboardQuery = z.object({
  period: z.enum(MISSION_PERIODS).default('daily'),
  limit: z.coerce.number().int().min(1).max(100).default(20),
}).strict();
export const ZLeaderboardRow = z.object({
  rank: z.number().int(),
  /** Masked account name (first and last characters). */
  name: z.string(),
  /** Valid bets in the period, minor units. */
  total: z.number().int(),
  isMe: z.boolean(),
});
export const ZLeaderboard = z.object({
  period: z.enum(MISSION_PERIODS),
  periodKey: z.string(),
  endsAt: z.string(),
  list: z.array(ZLeaderboardRow),
  /** The caller's own place (null for guests and players without valid bets this period). */
  me: z.object({
    rank: z.number().int(),
    total: z.number().int(),
    /** True past the counted depth (10,000 places): rank is then 10,001 and reads "10,000+". */
    beyondCap: z.boolean(),
  }).nullable(),
});

export const missionCalls = {
  summary: defineCall({ method: 'GET', path: relayPath('MCSFE_getMissionSummaryDetails'), auth: true, query: ZMissionSummaryQuery, value: ZMissionSummary }),
  claim: defineCall({ method: 'POST', path: `${MISSIONS_PREFIX}/claim`, auth: true, body: ZMissionClaimBody, value: ZMissionClaimValue }),
  leaderboard: defineCall({ method: 'GET', path: relayPath('getMissionLeaderboard'), auth: false, query: ZLeaderboardQuery, value: ZLeaderboard }),
};

// ------------------------------------------------------------------ operator console

export const OPS_MISSIONS = '/ops/api/missions';
const ZText = z.object({ EN: z.string().trim().min(1).max(120), TY: z.string().trim().min(1).max(120) }).strict();
export const ZOpsMissionBody = z.object({
  period: z.enum(MISSION_PERIODS),
  kind: z.enum(MISSION_KINDS),
  // One of the catalogue's game types: a mission on any other would count no bet.
  gameType: z.enum(GAME_TYPES).nullable().default(null),
  title: ZText,
  target: z.number().int().positive().max(1_000_000_000_000),
  rewardAmount: z.number().int().positive().max(1_000_000_000),
  enabled: z.boolean().default(true),
  sort: z.number().int().min(0).max(10_000).default(0),
}).strict()
  .refine((b) => (b.kind === 'game_bet') === (b.gameType !== null), { message: 'gameType is needed for game_bet and only for it', path: ['gameType'] })
  .refine((b) => b.kind !== 'login_days' || b.target <= maxLoginDays(b.period), { message: 'A daily mission counts at most 1 sign-in day, a weekly one 7', path: ['target'] });
export const ZOpsMission = z.object({
  id: z.string(),
  period: z.enum(MISSION_PERIODS),
  kind: z.enum(MISSION_KINDS),
  gameType: z.string().nullable(),
  title: ZText,
  target: z.number().int(),
  rewardAmount: z.number().int(),
  enabled: z.boolean(),
  sort: z.number().int(),
  /** Rewards claimed so far (all periods). */
  claims: z.number().int(),
});
export type TOpsMission = z.infer<typeof ZOpsMission>;
export const ZOpsMissionList = z.object({ list: z.array(ZOpsMission) });

/** Operator calls (permissions missions.read and missions.manage of OPS_PERMISSIONS). */
export const opsMissionCalls = {
  list: defineCall({ method: 'GET', path: OPS_MISSIONS, auth: true, query: ZNoQuery, value: ZOpsMissionList }),
  create: defineCall({ method: 'POST', path: OPS_MISSIONS, auth: true, body: ZOpsMissionBody, value: ZOpsMission }),
  update: defineCall({ method: 'PUT', path: `${OPS_MISSIONS}/:id`, auth: true, body: ZOpsMissionBody, value: ZOpsMission }),
};
