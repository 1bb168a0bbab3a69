import { z } from 'zod';

/** Every HTTP response: `{ success, code?, message?, value? }`. */
export function zEnvelope<T extends z.ZodType>(value: T) {
  return z.object({
    success: z.boolean(),
    code: z.string().optional(),
    message: z.string().optional(),
    value: value.optional(),
  });
}

export const ZErrorEnvelope = z.object({
  success: z.literal(false),
  code: z.string(),
  message: z.string(),
  /** Field-level problems for validation errors: path and issue. */
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
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
