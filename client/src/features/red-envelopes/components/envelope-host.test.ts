import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api';
import { createSingleFlight } from '../../../lib/single-flight';
import { endedOf, envelopeView, showsEnvelopes } from './envelope-host';

describe('who sees red envelopes float in', () => {
  it('a signed-in real player; not a guest, a trial account or a player under an exclusion (whose grab is refused: RG_EXCLUDED)', () => {
    expect(showsEnvelopes({ isLogin: true, isTrial: false, isExcluded: false })).toBe(true);
    expect(showsEnvelopes({ isLogin: false, isTrial: false, isExcluded: false })).toBe(false);
    expect(showsEnvelopes({ isLogin: true, isTrial: true, isExcluded: false })).toBe(false);
    expect(showsEnvelopes({ isLogin: true, isTrial: false, isExcluded: true })).toBe(false);
  });
});

describe('the envelope dialog after a double tap on Open', () => {
  it('shows the share won even when a duplicate grab answered ENVELOPE_ALREADY_GRABBED after it', () => {
    const grabbed = new ApiError('ENVELOPE_ALREADY_GRABBED', 'Already grabbed', 409);
    expect(envelopeView({ amount: 500 }, grabbed)).toEqual({ won: { amount: 500 } });
    expect(envelopeView(undefined, grabbed)).toEqual({ error: grabbed });
    expect(envelopeView(undefined, null)).toBeNull();
  });

  it('sends one grab per envelope: the second tap before the first answers sends nothing', async () => {
    let calls = 0;
    const grab = () => {
      calls++;
      return new Promise<{ amount: number }>((r) => setTimeout(() => r({ amount: 500 }), 10));
    };
    const flight = createSingleFlight();
    const first = flight.run('env-1', grab);
    expect(flight.run('env-1', grab)).toBeNull();
    await first;
    expect(calls).toBe(1);
  });
});

describe('an open dialog whose envelope ended meanwhile', () => {
  it('says it expired (envelope.closed) or that every share is taken (left 0), instead of offering Open', () => {
    expect(endedOf(true, 3)).toBe('error_ENVELOPE_EXPIRED');
    expect(endedOf(false, 0)).toBe('error_ENVELOPE_EMPTY');
    expect(endedOf(false, 2)).toBeNull();
    // not known yet (no live count): Open stays
    expect(endedOf(false, null)).toBeNull();
  });
});
