import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { cashierCalls, type ZWithdrawPasswordBody } from '@portal/contracts/api/cashier';
import { call, isApiError } from './api';

/**
 * The transaction password (the server's withdraw password, `payment_password_hash`): withdrawals, bank
 * accounts, transfers and the points mall ask for it, the security centre sets and changes it. Those
 * features all read whether it is set from here, so setting it in one place updates the others.
 */
export const TRANSACTION_PASSWORD_KEY = ['member', 'transaction-password'] as const;

/** The security centre's transaction password item, with its dialog open. */
export const TRANSACTION_PASSWORD_HREF = '/member?tab=securityCenter&open=transactionPassword';
/** The `open` value of TRANSACTION_PASSWORD_HREF. */
export const TRANSACTION_PASSWORD_OPEN = 'transactionPassword';

/** GET /wps/member/withdraw-password: whether one is set. */
export function getTransactionPasswordStatus(signal?: AbortSignal) {
  return call(cashierCalls.withdrawPasswordStatus, { query: {}, signal });
}

export const transactionPasswordQueryOptions = () =>
  queryOptions({ queryKey: TRANSACTION_PASSWORD_KEY, queryFn: ({ signal }) => getTransactionPasswordStatus(signal) });

/**
 * Set in another tab or on another device, it is asked again when the page is looked at again (window
 * focus): a withdraw tab left open kept asking for a first transaction password already set elsewhere.
 */
export function useTransactionPasswordStatus(opts: { enabled?: boolean } = {}) {
  return useQuery({ ...transactionPasswordQueryOptions(), enabled: opts.enabled ?? true, refetchOnWindowFocus: true });
}

/**
 * A first set refused because one is set already (in another tab or on another device since the form
 * showed): the status is read again, so the form gives way to what needs the password.
 */
export function isAlreadySet(err: unknown): boolean {
  return isApiError(err) && err.code === 'VALIDATION' && err.details.some((d) => d.path === 'oldWithdrawPassword');
}

/**
 * POST /wps/member/withdraw-password: the first one with the login password, a change with the current
 * transaction password (the server checks either; five misses in 15 minutes lock it).
 */
export function setTransactionPassword(body: z.input<typeof ZWithdrawPasswordBody>) {
  return call(cashierCalls.setWithdrawPassword, { body });
}

export function useSetTransactionPassword() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: setTransactionPassword,
    onSuccess: () => qc.invalidateQueries({ queryKey: TRANSACTION_PASSWORD_KEY }),
    onError: (err) => (isAlreadySet(err) ? qc.invalidateQueries({ queryKey: TRANSACTION_PASSWORD_KEY }) : undefined),
  });
}
