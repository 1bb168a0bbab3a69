import { describe, expect, it } from 'vitest';
import { landingAfterPasswordChange } from './after-password-change';

describe('landing after a password change', () => {
  it('sends an agent to its back office after the forced change, wherever it logged in', () => {
    for (const pathname of ['/', '/agent', '/live', '/member']) {
      expect([pathname, landingAfterPasswordChange({ isForced: true, isAgent: true, pathname })]).toEqual([pathname, '/agentHome']);
    }
  });

  it('sends a player to the home page after the forced change', () => {
    expect(landingAfterPasswordChange({ isForced: true, isAgent: false, pathname: '/agent' })).toBe('/');
    expect(landingAfterPasswordChange({ isForced: true, isAgent: false, pathname: '/' })).toBe('/');
  });

  it('a change the agent chose: back office from the agent pages, home page from the member centre', () => {
    expect(landingAfterPasswordChange({ isForced: false, isAgent: true, pathname: '/agent' })).toBe('/agentHome');
    expect(landingAfterPasswordChange({ isForced: false, isAgent: true, pathname: '/agentHome' })).toBe('/agentHome');
    expect(landingAfterPasswordChange({ isForced: false, isAgent: true, pathname: '/member' })).toBe('/');
    expect(landingAfterPasswordChange({ isForced: false, isAgent: false, pathname: '/member' })).toBe('/');
  });
});
