import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { walletCalls, type ZWalletTransferBody } from '@portal/contracts/api/wallet';
import { call } from '../../../lib/api';
import { TRANSFERS_KEY } from './get-transfers';

/** POST relay GCS_walletTransfer: to the direct upline, or (agents) to a downline by account; idempotent by requestId. */
export function sendTransfer(body: z.input<typeof ZWalletTransferBody>) {
  return call(walletCalls.transfer, { body });
}

export function useSendTransfer() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: sendTransfer, onSettled: () => qc.invalidateQueries({ queryKey: TRANSFERS_KEY }) });
}
