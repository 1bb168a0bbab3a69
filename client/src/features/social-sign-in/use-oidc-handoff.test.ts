import { describe, expect, it } from 'vitest';
import { readHandoff } from './use-oidc-handoff';
import { oidcStartHref } from './social-sign-in';

describe('social sign-in handoff', () => {
  it('reads the handoff code and leaves the rest of the address', () => {
    expect(readHandoff('http://portal.test/promotions?tab=2&oidc=abc123#top')).toEqual({ code: 'abc123', error: null, cleanUrl: '/promotions?tab=2#top' });
    expect(readHandoff('http://portal.test/?oidc=abc')).toEqual({ code: 'abc', error: null, cleanUrl: '/' });
  });

  it('reads error codes, unknown ones as OIDC_FAILED', () => {
    expect(readHandoff('http://portal.test/?oidcError=OIDC_UNAVAILABLE').error).toBe('OIDC_UNAVAILABLE');
    expect(readHandoff('http://portal.test/?oidcError=ACCOUNT_DISABLED').error).toBe('ACCOUNT_DISABLED');
    expect(readHandoff('http://portal.test/?oidcError=%3Cscript%3E').error).toBe('OIDC_FAILED');
    expect(readHandoff('http://portal.test/games').error).toBeNull();
  });

  it('starts at the gateway with the current page to come back to', () => {
    expect(oidcStartHref({ pathname: '/games/slots', search: '?type=1' })).toBe('/wps/session/oidc/start?returnTo=%2Fgames%2Fslots%3Ftype%3D1');
  });
});
