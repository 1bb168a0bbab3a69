import { authCalls } from '@portal/contracts/api/auth';
import { AppError, ErrorCode } from '../../app/errors.ts';
import { readsAndWrites } from '../rg/restricted-session.ts';

/**
 * A session whose password must change (opened by a password login with the default password, or an
 * expired one where the merchant forces the change: sessions.password_change_required) reads, and of
 * the writes makes only the change itself and signing out. Every other write (deposit, withdrawal,
 * game launch, transfer, agent actions, and any call added later) answers 403 PASSWORD_CHANGE_REQUIRED:
 * the default is to refuse. The page shows the change-password modal, which cannot be dismissed, on
 * login and on every load of such a session (member info says so), so a reload cannot skip it.
 */
const isAllowedBeforeChange = readsAndWrites([authCalls.changePassword, authCalls.logout, authCalls.keepSession]);

export function assertPasswordChanged(method: string, path: string, session: { passwordChangeRequired?: boolean } | null | undefined): void {
  if (!session?.passwordChangeRequired || isAllowedBeforeChange(method, path)) return;
  throw new AppError(ErrorCode.PASSWORD_CHANGE_REQUIRED);
}
