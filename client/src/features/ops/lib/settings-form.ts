import type { TManualBank, TOpsSettings } from '@portal/contracts/api/ops';
import { parsePesos } from './money-input';

export const MONEY_SETTINGS = ['depositMin', 'depositMax', 'withdrawMin', 'withdrawMax', 'withdrawDailyMax'] as const;
/** The limits part of the settings (the manual bank account has its own form below). */
export type CashierLimits = Omit<TOpsSettings, 'manualBank'>;
export type SettingsForm = Record<keyof CashierLimits, string>;
/** Why a field is refused; each has a translation `settings_error_<code>`. */
export type SettingsError = 'amount' | 'minutes' | 'below_min' | 'below_max';

/** ZOpsSettings.autoReceiveMinutes: 1 minute to 7 days. */
const MINUTES = { min: 1, max: 10_080 };

/**
 * The settings form as the gateway wants it (minor units), or the problem of each field: amounts
 * positive with at most the currency's decimals (`exponent`: 2 for PHP, 0 for VND), each maximum at
 * least its minimum, the daily maximum at least the per-request maximum (the gateway's rule, checked
 * first here to point at the field).
 */
export function parseSettingsForm(form: SettingsForm, exponent = 2): { value: CashierLimits | null; errors: Partial<Record<keyof CashierLimits, SettingsError>> } {
  const errors: Partial<Record<keyof CashierLimits, SettingsError>> = {};
  const money = {} as Record<(typeof MONEY_SETTINGS)[number], number>;
  for (const k of MONEY_SETTINGS) {
    const v = parsePesos(form[k], { exponent });
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

export type BankForm = Record<keyof TManualBank, string>;
/** Why a bank field is refused; each has a translation `bank_error_<code>`. */
export type BankError = 'required' | 'name' | 'number';
export const BANK_FIELDS = ['bankName', 'accountName', 'accountNumber'] as const;
/** ZOpsSettings.manualBank.accountNumber: 4 to 34 letters, digits, spaces or hyphens, starting and ending with a letter or digit. */
const ACCOUNT_NUMBER = /^[0-9A-Za-z][0-9A-Za-z -]{2,32}[0-9A-Za-z]$/;

/**
 * The manual bank receiving account as the gateway wants it, the gateway's rules checked first to
 * point at the field: all three filled (names 2 to 64 characters), or all three empty to remove the
 * account (`value: null`, the channel is then not offered).
 */
export function parseBankForm(form: BankForm): { value: TManualBank | null; errors: Partial<Record<keyof TManualBank, BankError>> } {
  const v = { bankName: form.bankName.trim(), accountName: form.accountName.trim(), accountNumber: form.accountNumber.trim() };
  if (!v.bankName && !v.accountName && !v.accountNumber) return { value: null, errors: {} };
  const errors: Partial<Record<keyof TManualBank, BankError>> = {};
  for (const k of ['bankName', 'accountName'] as const) {
    if (!v[k]) errors[k] = 'required';
    else if (v[k].length < 2 || v[k].length > 64) errors[k] = 'name';
  }
  if (!v.accountNumber) errors.accountNumber = 'required';
  else if (!ACCOUNT_NUMBER.test(v.accountNumber)) errors.accountNumber = 'number';
  return { value: Object.keys(errors).length > 0 ? null : v, errors };
}
