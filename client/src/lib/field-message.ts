import type { FieldProblem } from '@portal/contracts/domain/registration';
import { errorKey } from './error-key';

/**
 * A translatable message for a form field: `key` carries its namespace ('register:reg_pattern_1',
 * 'common:error_CAPTCHA_INVALID'); `values` fill {{range}}, {{min}}, {{max}}.
 * Machines keep these (plain data), components translate them.
 */
export type FieldMessage = { key: string; values?: Record<string, string | number> };
export type FieldErrors = Partial<Record<string, FieldMessage>>;

export const MSG = {
  empty: { key: 'register:input_empty' },
  confirmMismatch: { key: 'register:confirm_mismatch' },
  termsRequired: { key: 'register:terms_required' },
  ageRequired: { key: 'register:age_required' },
  mobileInvalid: { key: 'register:mobile_invalid' },
  codeInvalid: { key: 'register:code_invalid' },
  invalid: { key: 'register:field_invalid' },
} as const satisfies Record<string, FieldMessage>;

function rangeValues(min: number, max: number) {
  return { min, max, range: min === max ? String(min) : `${min}-${max}` };
}

/** A problem found by `checkField` (shared with the server). */
export function problemMessage(p: FieldProblem): FieldMessage {
  if (p.kind === 'required') return MSG.empty;
  if (p.kind === 'mismatch') return MSG.confirmMismatch;
  return { key: `register:${p.key}`, values: rangeValues(p.min, p.max) };
}

const SERVER_PATTERN = /^(reg_pattern_(\d{1,2})):(\d+)(?:-(\d+))?$/;

/**
 * A `details[].message` of a VALIDATION envelope: 'Input cannot be empty', `reg_pattern_N:range`
 * ('6-16' or '6') or 'Confirmation password is not correct.'. Anything else reads as invalid input.
 */
export function serverDetailMessage(message: string): FieldMessage {
  const m = SERVER_PATTERN.exec(message);
  if (m && Number(m[2]) <= 20) {
    const min = Number(m[3]);
    const max = m[4] === undefined ? min : Number(m[4]);
    return { key: `register:${m[1]}`, values: rangeValues(min, max) };
  }
  if (message === 'Input cannot be empty') return MSG.empty;
  if (message === 'Confirmation password is not correct.') return MSG.confirmMismatch;
  return MSG.invalid;
}

/** The translated error of any failure (codes of the contracts, in namespace common). */
export function errorMessage(error: unknown): FieldMessage {
  return { key: `common:${errorKey(error)}` };
}
