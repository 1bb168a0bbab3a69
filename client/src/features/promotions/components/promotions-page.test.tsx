import { afterEach, describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { TPromotion } from '@portal/contracts/api/promotions';
import { i18n } from '../../../i18n/i18n';
import { RgExclusionContext } from '../../../lib/rg-exclusion';
import { clearSession, setSessionToken } from '../../../lib/session';
import { renderStatic, textOf } from '../../../lib/testing/static-render';
import { PromotionCard } from './promotions-page';
import { RewardCentre } from './reward-centre';

afterEach(async () => {
  clearSession();
  await i18n.changeLanguage('EN');
});

const promo = (over: Partial<TPromotion>): TPromotion => ({
  id: '1', category: 'daily', kind: 'daily_signin', title: 'Daily sign-in', rules: 'Sign in every day.', startsAt: '2026-12-04T15:15:00.000Z', endsAt: null,
  requiresJoin: false, rewardAmount: 100, rewardBps: 0, rewardCap: null, minDeposit: 0, wageringBonusX: 0, wageringDepositX: 0, weights: {}, rebateBps: {},
  bonusDays: 7, drawAt: null, winners: null, status: 'join', rewardId: null, ...over,
});
const cards = [promo({}), promo({ id: '2', kind: 'first_deposit', requiresJoin: true }), promo({ id: '3', kind: 'request', status: 'signed' }), promo({ id: '4', status: 'claim', rewardId: '9' })];
const excluded = { kind: 'cooling', until: '2026-12-12T15:15:00.000Z' };

describe('promotions of an excluded player (join, request and claim are refused: RG_EXCLUDED)', () => {
  it('the cards keep their rules and show no join, sign-in, request or claim button', async () => {
    setSessionToken('tok');
    for (const lang of ['EN', 'TY'] as const) {
      const open = await renderStatic(lang, <>{cards.map((p) => <PromotionCard key={p.id} p={p} />)}</>, { namespaces: ['promotions'] });
      for (const id of ['promo-join', 'promo-request', 'promo-claim', 'promo-remark']) expect(open, id).toContain(`data-testid="${id}"`);
      const closed = await renderStatic(lang, (
        <RgExclusionContext.Provider value={excluded}>{cards.map((p) => <PromotionCard key={p.id} p={p} />)}</RgExclusionContext.Provider>
      ), { namespaces: ['promotions'] });
      for (const id of ['promo-join', 'promo-request', 'promo-claim', 'promo-remark']) expect(closed, id).not.toContain(`data-testid="${id}"`);
      expect(closed.match(/data-testid="promo-details"/g)).toHaveLength(4);
    }
  });

  it('the reward centre says claiming is closed and until when, with no claim button', async () => {
    setSessionToken('tok');
    const client = new QueryClient();
    client.setQueryData(['promotions', 'tok', 'rewards', 'EN'], {
      list: [{ id: '9', promotionId: '4', title: 'Daily sign-in', category: 'daily', status: 'claim', state: 'claimable', amount: 100, remark: null, decisionReason: null, periodKey: null, createdAt: '2026-12-05T01:00:00.000Z' }],
      claimable: 1, processing: 0, bonusBalance: 0,
    });
    const html = await renderStatic('EN', <RgExclusionContext.Provider value={excluded}><RewardCentre /></RgExclusionContext.Provider>, { client, namespaces: ['promotions', 'rg'] });
    expect(html).toContain('data-testid="reward-9"');
    expect(html).not.toContain('data-testid="reward-claim"');
    expect(textOf(html)).toContain('Claiming rewards is closed for your account. Until 2026-12-12 23:15.');
  });
});
