import type { TOpsSettings } from '@portal/contracts/api/ops';
import { parsePesos } from './money-input';

export const MONEY_SETTINGS = ['depositMin', 'depositMax', 'withdrawMin', 'withdrawMax', 'withdrawDailyMax'] as const;
export type SettingsForm = Record<keyof TOpsSettings, string>;
/** Why a field is refused; each has a translation `settings_error_<code>`. */
export type SettingsError = 'amount' | 'minutes' | 'below_min' | 'below_max';

/** ZOpsSettings.autoReceiveMinutes: 1 minute to 7 days. */
const MINUTES = { min: 1, max: 10_080 };

/**
 * The settings form as the gateway wants it (centavos), or the problem of each field: amounts
 * positive with 2 decimals, each maximum at least its minimum, the daily maximum at least the
 * per-request maximum (the gateway's rule, checked first here to point at the field).
 */
export function parseSettingsForm(form: SettingsForm): { value: TOpsSettings | null; errors: Partial<Record<keyof TOpsSettings, SettingsError>> } {
  const errors: Partial<Record<keyof TOpsSettings, SettingsError>> = {};
  const money = {} as Record<(typeof MONEY_SETTINGS)[number], number>;
  for (const k of MONEY_SETTINGS) {
    const v = parsePesos(form[k]);
    if (v === null) errors[k] = 'amount';
    else money[k] = v;
  }
  const minutesText = form.autoReceiveMinutes.trim();
  const minutes = /^\d{1,6}$/.test(minutesText) ? Number(minutesText) : NaN;
  if (!(minutes >= MINUTES.min && minutes <= MINUTES.max)) errors.autoReceiveMinutes = 'minutes';
  if (!errors.depositMin && !errors.depositMax && money.depositMax < money.depositMin) errors.depositMax = 'below_min';
  if (!errors.withdrawMin && !errors.withdrawMax && money.withdrawMax < money.withdrawMin) errors.withdrawMax = 'below_min';
  if (!errors.withdrawMax && !errors.withdrawDailyMax && money.withdrawDailyMax < money.withdrawMax) errors.withdrawDailyMax = 'below_max';
  if (Object.keys(errors).length > 0) return { value: null, errors };
  return { value: { ...money, autoReceiveMinutes: minutes }, errors };
}
