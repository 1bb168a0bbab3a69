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
  dateInvalid: { key: 'register:date_invalid' },
  passwordsMustDiffer: { key: 'common:error_PASSWORDS_MUST_DIFFER' },
  passwordUnchanged: { key: 'common:error_PASSWORD_UNCHANGED' },
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

/**
 * The server's field message for a transaction password equal to the login password (ERROR_MESSAGES of
 * the contracts, written out so that the first load does not carry that whole table; a test holds them equal).
 */
export const PASSWORDS_MUST_DIFFER_TEXT = 'The login password and the transaction password must be different';
/** The same for a new password equal to the old one (PASSWORD_UNCHANGED). */
export const PASSWORD_UNCHANGED_TEXT = 'The new password must be different from the old one';

const SERVER_PATTERN = /^(reg_pattern_(\d{1,2})):(\d+)(?:-(\d+))?$/;

/**
 * A `details[].message` of a VALIDATION envelope: 'Input cannot be empty', `reg_pattern_N:range`
 * ('6-16' or '6'), 'Confirmation password is not correct.', 'Not a valid date' or the login and transaction
 * passwords' PASSWORDS_MUST_DIFFER or PASSWORD_UNCHANGED text. Anything else reads as invalid input.
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
  if (message === 'Not a valid date') return MSG.dateInvalid;
  if (message === PASSWORDS_MUST_DIFFER_TEXT) return MSG.passwordsMustDiffer;
  if (message === PASSWORD_UNCHANGED_TEXT) return MSG.passwordUnchanged;
  return MSG.invalid;
}

/** The translated error of any failure (codes of the contracts, in namespace common). */
export function errorMessage(error: unknown): FieldMessage {
  return { key: `common:${errorKey(error)}` };
}
