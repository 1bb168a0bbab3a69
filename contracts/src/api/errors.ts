/**
 * Error codes. The server sends codes (and an English fallback message for API users);
 * the client translates codes.
 */
export const ErrorCode = {
  BAD_REQUEST: 'BAD_REQUEST',
  VALIDATION: 'VALIDATION',
  MALFORMED_JSON: 'MALFORMED_JSON',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  NOT_FOUND: 'NOT_FOUND',
  METHOD_NOT_ALLOWED: 'METHOD_NOT_ALLOWED',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  MODULE_DISABLED: 'MODULE_DISABLED',
  TOO_MANY_REQUESTS: 'TOO_MANY_REQUESTS',
  CONFLICT: 'CONFLICT',
  MAINTENANCE: 'MAINTENANCE',
  REGION_RESTRICTED: 'REGION_RESTRICTED',
  UNKNOWN_MERCHANT: 'UNKNOWN_MERCHANT',
  NOT_AVAILABLE: 'NOT_AVAILABLE',
  INTERNAL: 'INTERNAL',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** HTTP status for each code. */
export const ERROR_STATUS: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  VALIDATION: 400,
  MALFORMED_JSON: 400,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  MODULE_DISABLED: 403,
  TOO_MANY_REQUESTS: 429,
  CONFLICT: 409,
  MAINTENANCE: 503,
  REGION_RESTRICTED: 403,
  UNKNOWN_MERCHANT: 400,
  NOT_AVAILABLE: 404,
  INTERNAL: 500,
};

/** English messages, used by API clients and as the client's fallback. */
export const ERROR_MESSAGES: Record<ErrorCode, string> = {
  BAD_REQUEST: 'Bad request',
  VALIDATION: 'Invalid input',
  MALFORMED_JSON: 'Malformed JSON body',
  PAYLOAD_TOO_LARGE: 'Request body too large',
  UNSUPPORTED_MEDIA_TYPE: 'Unsupported content type',
  NOT_FOUND: 'Not found',
  METHOD_NOT_ALLOWED: 'Method not allowed',
  UNAUTHORIZED: 'You are not logged in. Please log in',
  FORBIDDEN: 'Forbidden',
  MODULE_DISABLED: 'Function not enabled, contact customer service',
  TOO_MANY_REQUESTS: 'Too many requests, please try again after 5 minutes.',
  CONFLICT: 'Conflict',
  MAINTENANCE: 'System maintenance',
  REGION_RESTRICTED: 'Access restricted by IP or location',
  UNKNOWN_MERCHANT: 'Unknown merchant',
  NOT_AVAILABLE: 'Not available',
  INTERNAL: 'Unknown error',
};
