import { WITHDRAWAL_TRANSITIONS, type WithdrawalStatus } from '@portal/contracts/api/cashier';
import { WITHDRAWAL_STATUSES } from '@portal/contracts/events/events';

/** What an operator can do to a withdrawal; each names one operator call. */
export type WithdrawalAction = 'approve' | 'reject' | 'paid' | 'unknown' | 'reconcilePaid' | 'reconcileFailed';

/** The input an action asks for: a required reason or note, an optional payout reference. */
export type ActionInput = { text: 'none' | 'optionalNote' | 'reason' | 'note'; payoutReference: boolean };

/**
 * Operator actions by the transition they make. The player's confirmations (paid -> received ...)
 * are not operator actions. A transition that is not legal in WITHDRAWAL_TRANSITIONS never shows.
 */
const ACTION_OF_TRANSITION: Partial<Record<WithdrawalStatus, Partial<Record<WithdrawalStatus, WithdrawalAction>>>> = {
  requested: { approved: 'approve', rejected: 'reject' },
  approved: { paid: 'paid', rejected: 'reject', held: 'unknown' },
  held: { paid: 'reconcilePaid', rejected: 'reconcileFailed' },
};

export const ACTION_INPUT: Record<WithdrawalAction, ActionInput> = {
  approve: { text: 'optionalNote', payoutReference: false },
  reject: { text: 'reason', payoutReference: false },
  paid: { text: 'none', payoutReference: true },
  unknown: { text: 'reason', payoutReference: false },
  reconcilePaid: { text: 'note', payoutReference: true },
  reconcileFailed: { text: 'note', payoutReference: false },
};

/** The actions allowed for a withdrawal in `status`, in the order of its legal transitions. */
export function withdrawalActionsFor(status: WithdrawalStatus): WithdrawalAction[] {
  const byTarget = ACTION_OF_TRANSITION[status] ?? {};
  return WITHDRAWAL_TRANSITIONS[status].flatMap((to) => {
    const a = byTarget[to];
    return a ? [a] : [];
  });
}

/** Queue tabs: the working statuses one by one, the final ones together. */
export const WITHDRAWAL_TABS = ['requested', 'approved', 'held', 'paid', 'done'] as const;
export type WithdrawalTab = (typeof WITHDRAWAL_TABS)[number];
/** Final statuses (no transition out): shown under 'done', one status at a time. */
export const DONE_STATUSES: readonly WithdrawalStatus[] = WITHDRAWAL_STATUSES.filter((s) => WITHDRAWAL_TRANSITIONS[s].length === 0);

/** Where a withdrawal in `status` is listed. */
export function tabOfStatus(status: WithdrawalStatus): WithdrawalTab {
  return (WITHDRAWAL_TABS as readonly string[]).includes(status) ? (status as WithdrawalTab) : 'done';
}
