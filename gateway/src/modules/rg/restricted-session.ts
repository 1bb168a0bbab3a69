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
const ALLOWED_WRITES = [
  authCalls.logout, authCalls.keepSession, authCalls.changePassword, authCalls.totpSetup, authCalls.totpEnable,
  cashierCalls.createWithdrawal, cashierCalls.confirmWithdrawal, cashierCalls.addBankAccount, cashierCalls.removeBankAccount, cashierCalls.setWithdrawPassword,
  walletCalls.markRead,
  // the player may still tighten limits, extend an exclusion and set reality checks
  rgCalls.setLimit, rgCalls.confirmLimit, rgCalls.exclude, rgCalls.session,
  // and reach customer service (the live chat): a question about a withdrawal or the exclusion itself
  chatCalls.launchChat, chatCalls.send, chatCalls.read,
].map((c) => ({ method: c.method, path: new RegExp(`^${c.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[a-zA-Z]+/g, '[^/]+')}$`) }));

/** Whether an excluded player's session may make this call. */
export function isAllowedWhenExcluded(method: string, path: string): boolean {
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return true;
  return ALLOWED_WRITES.some((w) => w.method === method && w.path.test(path));
}

/** RG_EXCLUDED (403, value: kind and end) for a call a restricted session may not make. */
export function assertAllowedWhenExcluded(method: string, path: string, exclusion: { kind: string; until: string | null } | null | undefined): void {
  if (!exclusion || isAllowedWhenExcluded(method, path)) return;
  throw new AppError(ErrorCode.RG_EXCLUDED, undefined, undefined, { until: exclusion.until, kind: exclusion.kind });
}
