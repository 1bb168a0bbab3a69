import { describe, expect, it } from 'vitest';
import { realtimeLabelKey } from './realtime-indicator';
import en from '../../i18n/locales/en/common.json';
import ty from '../../i18n/locales/ty/common.json';

describe('the live-updates dot says what is going on', () => {
  it('first connection, lost connection, on, and a device with no network each have their own words (all read "Reconnecting")', () => {
    expect(realtimeLabelKey('connecting', true)).toBe('live_connecting');
    expect(realtimeLabelKey('reconnecting', true)).toBe('live_reconnecting');
    expect(realtimeLabelKey('connected', true)).toBe('live_connected');
    for (const s of ['connecting', 'reconnecting', 'connected'] as const) expect(realtimeLabelKey(s, false)).toBe('live_offline');
    const keys = ['live_connecting', 'live_reconnecting', 'live_connected', 'live_offline', 'live_offline_notice'];
    for (const k of keys) {
      expect((en as Record<string, string>)[k], k).toBeTruthy();
      expect((ty as Record<string, string>)[k], k).toBeTruthy();
      expect((ty as Record<string, string>)[k], k).not.toBe((en as Record<string, string>)[k]);
    }
    expect(new Set(keys.map((k) => (en as Record<string, string>)[k])).size).toBe(keys.length);
  });
});
