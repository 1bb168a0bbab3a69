/**
 * Promotions (issue 14): the rules both sides need, pure. Statuses of spec section 4, categories of
 * section 3, the drop-menu rebate labels of section 9, wagering contribution and the raffle draw.
 */
export const PROMOTION_CATEGORIES = ['newbie', 'limited', 'special', 'daily', 'high_rebate', 'vip'] as const;
export type TPromotionCategory = (typeof PROMOTION_CATEGORIES)[number];
export const PROMOTION_KINDS = ['signup', 'request', 'first_deposit', 'daily_signin', 'rebate', 'raffle'] as const;
export type TPromotionKind = (typeof PROMOTION_KINDS)[number];
/** Activity statuses (spec section 4), as the player sees them on a promotion. */
export const ACTIVITY_STATUSES = ['join', 'claim', 'applying', 'closed', 'rejected', 'issued', 'claimed', 'processing', 'signed', 'coming_soon'] as const;
export type TActivityStatus = (typeof ACTIVITY_STATUSES)[number];
/** A reward row's stored status. */
export const REWARD_STATES = ['applying', 'rejected', 'claimable', 'processing', 'completed', 'forfeited'] as const;
export type TRewardState = (typeof REWARD_STATES)[number];
/** Activity remark: at most 140 characters (spec sections 5 and 9). */
export const REMARK_MAX = 140;

/** The drop-menu rebate labels of spec section 9, in basis points (PVP: none). The default rates of a rebate promotion. */
export const REBATE_LABEL_BPS: Readonly<Record<string, number>> = { LOTT: 100, ELOTT: 100, FISH: 100, RNG: 120, LIVE: 80, SPORTS: 100, ESPORTS: 100 };

/** The player-facing status of a reward row (claimed: the player claimed it; issued: credited without a claim). */
export function rewardStatus(state: TRewardState, claimed: boolean): TActivityStatus {
  switch (state) {
    case 'applying': return 'applying';
    case 'rejected': return 'rejected';
    case 'claimable': return 'claim';
    case 'processing': return 'processing';
    case 'completed': return claimed ? 'claimed' : 'issued';
    case 'forfeited': return 'closed';
  }
}

/** What a bet of `amount` on `gameType` counts towards wagering: floor(amount x weight% ), weight 100 when not configured. */
export function wagerContribution(amount: number, gameType: string | null, weights: Readonly<Record<string, number>>): number {
  const w = gameType !== null && weights[gameType] !== undefined ? weights[gameType]! : 100;
  return Math.floor((amount * Math.max(0, Math.min(100, w))) / 100);
}

/** Wagering required for a bonus: bonusX x bonus + depositX x deposit. */
export const wagerRequired = (bonus: number, deposit: number, bonusX: number, depositX: number) => bonus * bonusX + deposit * depositX;

/**
 * The raffle draw, verifiable by anyone: the operator commits to sha256(seed) when the raffle is created;
 * after the draw the seed is revealed. Entries are the entry ids in ascending order; pick i (from 0) takes
 * the first 48 bits of sha256(`${seed}:${i}`) modulo the entries left and removes that entry.
 * `sha256Hex` is injected (node:crypto on the server, WebCrypto in the browser).
 */
export async function drawWinners(seed: string, entries: readonly string[], winners: number, sha256Hex: (s: string) => Promise<string>): Promise<string[]> {
  const left = [...entries].sort((a, b) => Number(a) - Number(b));
  const out: string[] = [];
  for (let i = 0; i < winners && left.length > 0; i++) {
    const h = await sha256Hex(`${seed}:${i}`);
    const r = parseInt(h.slice(0, 12), 16) % left.length;
    out.push(left.splice(r, 1)[0]!);
  }
  return out;
}
