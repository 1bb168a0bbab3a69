import { describe, expect, it } from 'vitest';
import type { TFieldRule } from '@portal/contracts/api/auth';
import { ApiError } from '../../../lib/api';
import { createDownlineServerErrors, validateNewDownline } from './register-centre';

const username: TFieldRule = { field: 'username', enabled: true, required: true, patternId: 1, type: 'text', acceptedPattern: '^[A-Za-z][A-Za-z0-9]*$', minLength: 6, maxLength: 16 };
const password: TFieldRule = { field: 'password', enabled: true, required: true, patternId: 5, type: 'password', acceptedPattern: '^(?=.*[A-Za-z])(?=.*\\d)[A-Za-z0-9]+$', minLength: 6, maxLength: 20 };

describe('register centre: create a downline', () => {
  it('names the field and the rule that failed before sending (account a, password 1)', () => {
    expect(validateNewDownline({ username, password }, { account: 'a', password: '1' })).toEqual({
      account: { key: 'register:reg_pattern_1', values: { min: 6, max: 16, range: '6-16' } },
      password: { key: 'register:reg_pattern_5', values: { min: 6, max: 20, range: '6-20' } },
    });
    expect(validateNewDownline({ username, password }, { account: ' ', password: '' })).toEqual({
      account: { key: 'register:input_empty' }, password: { key: 'register:input_empty' },
    });
    expect(validateNewDownline({ username, password }, { account: 'newagent1', password: 'abc12345' })).toEqual({});
  });

  it("puts the server's field details under their fields", () => {
    const err = new ApiError('VALIDATION', 'Invalid input', 400, [{ path: 'account', message: 'reg_pattern_1:6-16' }, { path: 'password', message: 'reg_pattern_5:6-20' }]);
    expect(createDownlineServerErrors(err)).toEqual({
      fields: { account: { key: 'register:reg_pattern_1', values: { min: 6, max: 16, range: '6-16' } }, password: { key: 'register:reg_pattern_5', values: { min: 6, max: 20, range: '6-20' } } },
      form: null,
    });
    expect(createDownlineServerErrors(new ApiError('ACCOUNT_EXISTS', 'taken', 409)).fields.account).toEqual({ key: 'common:error_ACCOUNT_EXISTS' });
    expect(createDownlineServerErrors(new ApiError('NETWORK', 'down', null)).form).not.toBeNull();
  });
});
