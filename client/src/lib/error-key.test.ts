import { describe, expect, it } from 'vitest';
import { ApiError } from './api';
import { errorKey } from './error-key';

describe('errorKey', () => {
  it('maps contract and client codes to keys, anything else to error_INTERNAL', () => {
    expect(errorKey(new ApiError('UNAUTHORIZED', 'x'))).toBe('error_UNAUTHORIZED');
    expect(errorKey(new ApiError('NETWORK', 'x'))).toBe('error_NETWORK');
    expect(errorKey(new ApiError('SOMETHING_NEW', 'x'))).toBe('error_INTERNAL');
    expect(errorKey(new Error('boom'))).toBe('error_INTERNAL');
  });
});
