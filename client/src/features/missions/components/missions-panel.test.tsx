import { afterEach, describe, expect, it } from 'vitest';
import type { TMission } from '@portal/contracts/api/missions';
import { i18n } from '../../../i18n/i18n';
import { renderStatic } from '../../../lib/testing/static-render';
import { MissionCard } from './missions-panel';

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
