import { afterEach, describe, expect, it } from 'vitest';
import type { TMission } from '@portal/contracts/api/missions';
import { i18n } from '../../../i18n/i18n';
import { renderStatic } from '../../../lib/testing/static-render';
import { ApiError } from '../../../lib/api';
import { createSingleFlight, shownError } from '../../../lib/single-flight';
import { MissionCard, claimKey } from './missions-panel';

afterEach(async () => {
  await i18n.changeLanguage('EN');
});

const done: TMission = {
  id: '1', period: 'daily', kind: 'login_days', gameType: null, title: 'Sign in today', target: 1, progress: 1, rewardAmount: 100,
  periodKey: 'D2026-12-05', endsAt: '2026-12-05T16:00:00.000Z', status: 'claim',
};

describe('a completed mission', () => {
  it('offers the claim to a player who takes part, not to one under an exclusion (the claim is refused: RG_EXCLUDED)', async () => {
    const noop = () => {};
    expect(await renderStatic('EN', <MissionCard m={done} canClaim busy={false} onClaim={noop} />, { namespaces: ['missions'] })).toContain('data-testid="mission-claim-1"');
    const closed = await renderStatic('TY', <MissionCard m={done} canClaim={false} busy={false} onClaim={noop} />, { namespaces: ['missions'] });
    expect(closed).toContain('data-testid="mission-1"');
    expect(closed).not.toContain('mission-claim-1');
  });
});

describe('a double click on Claim (QA: paid once, then "This was already done" at the top of the panel)', () => {
  it('sends one claim of a mission in a period; the panel shows no CONFLICT once that claim succeeded', async () => {
    let calls = 0;
    const claim = () => {
      calls++;
      return new Promise<{ amount: number }>((r) => setTimeout(() => r({ amount: 100 }), 10));
    };
    const flight = createSingleFlight();
    const key = claimKey({ missionId: 1, periodKey: done.periodKey });
    const first = flight.run(key, claim);
    expect(flight.run(key, claim)).toBeNull();
    // another mission is its own claim
    expect(flight.run(claimKey({ missionId: 2, periodKey: done.periodKey }), claim)).not.toBeNull();
    const won = await first;
    expect(calls).toBe(2);
    const conflict = new ApiError('CONFLICT', 'Already claimed', 409);
    expect(shownError(conflict, key, new Map([[key, won]]))).toBeNull();
    // the same mission in the next period is another claim
    expect(claimKey({ missionId: 1, periodKey: 'D2026-12-06' })).not.toBe(key);
  });
});
