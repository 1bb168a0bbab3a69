import { z } from 'zod';
import { ERROR_DETAIL_RULES } from './errors.ts';

/** Every HTTP response: `{ success, code?, message?, value? }`. */
export function zEnvelope<T extends z.ZodType>(value: T) {
  return z.object({
    success: z.boolean(),
    code: z.string().optional(),
    message: z.string().optional(),
    value: value.optional(),
  });
}

/**
 * One field problem of a VALIDATION envelope. `message` is the rule's text in English (or the contract's
 * own text); `rule` says which kind of rule it broke so that a client can say it in its own language:
 * 'min' / 'max' (with `of` and, for texts and lists, `limit`: characters or items), 'type' (missing or
 * not the kind of value expected), 'int' (not a whole number), 'format' (a pattern or an e-mail, a
 * date...), 'value' (not one of the allowed values), 'keys' (a field the call does not have).
 */
export const ZErrorDetail = z.object({
  path: z.string(),
  message: z.string(),
  rule: z.enum(ERROR_DETAIL_RULES).optional(),
  of: z.enum(['string', 'number', 'array']).optional(),
  limit: z.number().optional(),
});
export type TErrorDetail = z.infer<typeof ZErrorDetail>;

export const ZErrorEnvelope = z.object({
  success: z.literal(false),
  code: z.string(),
  message: z.string(),
  /** Field-level problems for validation errors: path and issue (see ZErrorDetail). */
  details: z.array(ZErrorDetail).optional(),
});
export type TErrorEnvelope = z.infer<typeof ZErrorEnvelope>;

export type TEnvelope<T> = { success: boolean; code?: string; message?: string; value?: T };

/**
 * A call in the contract (ts-rest style): method, path, the schema of its query or body, and of its value.
 * `auth` is the spec's token flag: Y needs a session token.
 */
export type CallDef<Q extends z.ZodType | undefined, B extends z.ZodType | undefined, V extends z.ZodType> = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  auth: boolean;
  /**
   * An `auth` call a trial (free-play) session may make too: its balance, the game lists, logout.
   * Every other `auth` call belongs to the member or account centre, which the spec closes to trial
   * accounts: a trial session gets TRIAL_FORBIDDEN (403) there, so a new member call is closed by default.
   */
  trial?: true;
  /** The envelope's `message` on success, for calls the spec answers "success, message, value" (the SMS sends). */
  okMessage?: string;
  query?: Q;
  body?: B;
  value: V;
};

export function defineCall<
  V extends z.ZodType,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(def: CallDef<Q, B, V>): CallDef<Q, B, V> {
  return def;
}

/** Relay calls are served at /wps/relay/NAME. */
export const relayPath = (name: string) => `/wps/relay/${name}`;

/** The query of a GET that takes none: an unknown key is a VALIDATION 400, as on every other call. */
export const ZNoQuery = z.object({}).strict();

/**
 * Second names of relay calls. The spec's path table writes a service prefix once per list ("Points:
 * MCS2_getPointBalance, getPointReward, ..."; "favourites MCSFE_getFavoriteGames, getFavoriteGamesList,
 * ..."), which reads either way: the prefix for the whole list, or for the first name only. Both
 * readings are served: each alias answers exactly as the name it stands for (the gateway rewrites the
 * path before routing; GET /wps/openapi.json names the aliases in each call's description).
 */
export const RELAY_ALIASES: Readonly<Record<string, string>> = {
  MCS2_getPointReward: 'getPointReward',
  MCS2_getRedeemPointList: 'getRedeemPointList',
  MCS2_getPointConfig: 'getPointConfig',
  MCSFE_getMissionLeaderboard: 'getMissionLeaderboard',
  getFavoriteGamesList: 'MCSFE_getFavoriteGamesList',
  addFavoriteGameV2: 'MCSFE_addFavoriteGameV2',
  removeFavoriteGameV2: 'MCSFE_removeFavoriteGameV2',
};
