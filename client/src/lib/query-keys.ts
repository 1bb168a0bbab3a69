/**
 * Query keys shared across layers (realtime writes into them, features read them).
 * Feature-private keys stay in the feature's api file.
 */
export const QUERY_KEYS = {
  systemStatus: ['system', 'status'] as const,
  whitelabel: ['system', 'whitelabel'] as const,
  domainRoute: ['system', 'domainRoute'] as const,
  /** Winner board (GCSGAME_getRankList). Data is the call's value `{ list: TWinner[] }`; `winner.posted` prepends to it. */
  rankList: ['rankList'] as const,
};
