import { authCalls } from '@portal/contracts/api/auth';
import { cashierCalls } from '@portal/contracts/api/cashier';
import { walletCalls } from '@portal/contracts/api/wallet';
import { rgCalls } from '@portal/contracts/api/rg';
import { chatCalls } from '@portal/contracts/api/chat';
import { AppError, ErrorCode } from '../../app/errors.ts';

/**
 * The restricted session of an excluded player (any exclusion kind in force). The player may log in
 * to take their money out, to read the responsible-gaming page and to write to customer service, nothing else: reads (GET) pass,
 * and of the writes only those below. Every other write (game launch, deposit, transfer, favourites,
 * agent actions, and any call added later) answers 403 RG_EXCLUDED: the default is to refuse.
 * Bets are refused by the vendor API itself (checkMoney), whatever session launched the game.
 */
/**
 * A restricted session's rule: reads (GET, HEAD, OPTIONS) pass, and of the writes only `calls` (their
 * `:param` segments match any one segment). Used by the RG exclusion here and by the forced password
 * change (auth/password-change-gate.ts).
 */
export function readsAndWrites(calls: ReadonlyArray<{ method: string; path: string }>): (method: string, path: string) => boolean {
  const writes = calls.map((c) => ({ method: c.method, path: new RegExp(`^${c.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[a-zA-Z]+/g, '[^/]+')}$`) }));
  return (method, path) => method === 'GET' || method === 'HEAD' || method === 'OPTIONS' || writes.some((w) => w.method === method && w.path.test(path));
}

/** Whether an excluded player's session may make this call. */
export const isAllowedWhenExcluded = readsAndWrites([
  authCalls.logout, authCalls.keepSession, authCalls.changePassword, authCalls.totpSetup, authCalls.totpEnable,
  cashierCalls.createWithdrawal, cashierCalls.confirmWithdrawal, cashierCalls.addBankAccount, cashierCalls.removeBankAccount, cashierCalls.setWithdrawPassword,
  walletCalls.markRead,
  // the player may still tighten limits, extend an exclusion and set reality checks
  rgCalls.setLimit, rgCalls.confirmLimit, rgCalls.exclude, rgCalls.session,
  // and reach customer service (the live chat): a question about a withdrawal or the exclusion itself
  chatCalls.launchChat, chatCalls.send, chatCalls.read,
]);

/** RG_EXCLUDED (403, value: kind and end) for a call a restricted session may not make. */
export function assertAllowedWhenExcluded(method: string, path: string, exclusion: { kind: string; until: string | null } | null | undefined): void {
  if (!exclusion || isAllowedWhenExcluded(method, path)) return;
  throw new AppError(ErrorCode.RG_EXCLUDED, undefined, undefined, { until: exclusion.until, kind: exclusion.kind });
}
