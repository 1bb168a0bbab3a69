import { useMutation, useQueryClient } from '@tanstack/react-query';
import { opsCalls, type TOpsSettings } from '@portal/contracts/api/ops';
import { opsCall } from '../lib/ops-api';
import { OPS_KEY } from './ops-keys';
import { settingsKey } from './get-settings';

/** PUT /ops/api/settings with the changed fields only (admin). */
export function updateSettings(body: Partial<TOpsSettings>) {
  return opsCall(opsCalls.updateSettings, { body });
}

export function useUpdateSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateSettings,
    onSuccess: (v) => qc.setQueryData(settingsKey, v),
    onSettled: () => qc.invalidateQueries({ queryKey: OPS_KEY }),
  });
}
