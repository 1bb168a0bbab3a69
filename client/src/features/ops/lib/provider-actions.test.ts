import { describe, expect, it } from 'vitest';
import { PROVIDER_STATES } from '@portal/contracts/api/ops-providers';
import en from '../../../i18n/locales/en/ops.json';
import ty from '../../../i18n/locales/ty/ops.json';
import { isShownToPlayers, launchUrlErrorKey, providerActionsFor } from './provider-actions';

describe('provider actions', () => {
  it('offers what the server allows in each state; the house is built in', () => {
    expect(providerActionsFor('house')).toEqual([]);
    expect(providerActionsFor('not_connected')).toEqual(['connect']);
    expect(providerActionsFor('disconnected')).toEqual(['connect']);
    // The simulator derives its secret: connect for real to get one, no rotation.
    expect(providerActionsFor('simulated')).toEqual(['connect', 'disconnect']);
    expect(providerActionsFor('connected')).toEqual(['changeUrl', 'rotate', 'disconnect']);
  });

  it('players are shown the house, connected and simulated providers only', () => {
    expect(PROVIDER_STATES.filter(isShownToPlayers)).toEqual(['house', 'connected', 'simulated']);
  });

  it('checks a typed launch URL with the server rule (https only in production), saying nothing while empty', () => {
    expect(launchUrlErrorKey('', true)).toBeNull();
    expect(launchUrlErrorKey('https://games.example.com/play', true)).toBeNull();
    expect(launchUrlErrorKey('http://localhost:8090/play', false)).toBeNull();
    expect(launchUrlErrorKey('http://localhost:8090/play', true)).toBe('providers_url_error_https');
    expect(launchUrlErrorKey('https://games.example.com/play?x=1', false)).toBe('providers_url_error_format');
  });

  it('has every state, action and URL error text in EN and TY', () => {
    const keys = [
      ...PROVIDER_STATES.map((s) => `providers_state_${s}`),
      ...(['connect', 'changeUrl', 'rotate', 'disconnect'] as const).map((a) => `providers_action_${a}`),
      'providers_url_error_format', 'providers_url_error_https',
    ];
    expect(keys.filter((k) => !(k in en) || !(k in ty))).toEqual([]);
  });
});
