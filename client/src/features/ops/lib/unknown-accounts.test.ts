import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api';
import { unknownAccountsOf } from './unknown-accounts';

describe('unknownAccountsOf: the accounts a refused drop names', () => {
  it('reads the names and how many more the gateway left out', () => {
    const err = new ApiError('VALIDATION', 'Unknown accounts: nosuchplayer999', 400, [], { unknownAccounts: ['nosuchplayer999', 'ghost'], unknownCount: 25 });
    expect(unknownAccountsOf(err)).toEqual({ names: ['nosuchplayer999', 'ghost'], more: 23 });
    expect(unknownAccountsOf(new ApiError('VALIDATION', 'x', 400, [], { unknownAccounts: ['a'] }))).toEqual({ names: ['a'], more: 0 });
  });
  it('is null for other errors', () => {
    expect(unknownAccountsOf(new ApiError('VALIDATION', 'Invalid input', 400))).toBeNull();
    expect(unknownAccountsOf(new ApiError('FORBIDDEN', 'x', 403, [], { unknownAccounts: ['a'] }))).toBeNull();
    expect(unknownAccountsOf(new Error('boom'))).toBeNull();
    expect(unknownAccountsOf(null)).toBeNull();
  });
});
