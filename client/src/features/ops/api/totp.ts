import { useMutation, useQueryClient } from '@tanstack/react-query';
import { opsCalls } from '@portal/contracts/api/ops';
import { opsCall } from '../lib/ops-api';
import { OPS_KEY } from './ops-keys';

/** POST /ops/api/session/totp/setup: a new secret (QR code and text) to add to an authenticator app. */
export function useTotpSetup() {
  return useMutation({ mutationFn: () => opsCall(opsCalls.totpSetup, { body: {} }) });
}

/** POST /ops/api/session/totp/confirm: a code of the new secret ends enrolment; the session answer is re-read. */
export function useTotpConfirm() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => opsCall(opsCalls.totpConfirm, { body: { code } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: [...OPS_KEY, 'session'] }),
  });
}
