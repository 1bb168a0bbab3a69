import { describe, expect, it } from 'vitest';
import { ERROR_MESSAGES } from '@portal/contracts/api/errors';
import { MSG, PASSWORD_UNCHANGED_TEXT, PASSWORDS_MUST_DIFFER_TEXT, serverDetailMessage } from './field-message';

describe('serverDetailMessage', () => {
  it("reads the server's password field messages, whose texts it writes out, as their own messages", () => {
    expect(PASSWORDS_MUST_DIFFER_TEXT).toBe(ERROR_MESSAGES.PASSWORDS_MUST_DIFFER);
    expect(PASSWORD_UNCHANGED_TEXT).toBe(ERROR_MESSAGES.PASSWORD_UNCHANGED);
    expect(serverDetailMessage(ERROR_MESSAGES.PASSWORDS_MUST_DIFFER)).toEqual(MSG.passwordsMustDiffer);
    expect(serverDetailMessage(ERROR_MESSAGES.PASSWORD_UNCHANGED)).toEqual(MSG.passwordUnchanged);
    expect(serverDetailMessage('Not a valid date')).toEqual({ key: 'register:date_invalid' });
    expect(serverDetailMessage('reg_pattern_5:6-20')).toEqual({ key: 'register:reg_pattern_5', values: { min: 6, max: 20, range: '6-20' } });
    expect(serverDetailMessage('something else')).toEqual(MSG.invalid);
  });
});
