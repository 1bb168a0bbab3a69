import type { TErrorDetail } from '@portal/contracts/api/envelope';
import { ERROR_MESSAGES, ERROR_STATUS, ErrorCode } from '@portal/contracts/api/errors';

/** A failure with a code from the catalogue; the client translates the code. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly details?: TErrorDetail[],
    /** Extra machine-readable facts for the client, e.g. `{ captcha: true }` on a failed login. */
    readonly value?: Record<string, unknown>,
  ) {
    super(message ?? ERROR_MESSAGES[code]);
    this.status = ERROR_STATUS[code];
  }
}
export { ErrorCode };
