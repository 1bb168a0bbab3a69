import { afterEach, describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { TPromotion } from '@portal/contracts/api/promotions';
import { i18n } from '../../../i18n/i18n';
import { RgExclusionContext } from '../../../lib/rg-exclusion';
import { clearSession, setSessionToken } from '../../../lib/session';
import { renderStatic, textOf } from '../../../lib/testing/static-render';
import { PromotionCard } from './promotions-page';
import { RewardCentre } from './reward-centre';
import { BonusDetails } from './bonus-details';
import { LockedBonusNote } from './locked-bonus-note';

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

describe('bonus details', () => {
  it('says what the player kept of a bonus that a cancelled bet took back while the wallet was short (EN and TY)', async () => {
    setSessionToken('tok');
    const bonus = { id: '7', promotionId: '4', title: 'Welcome', category: 'newbie', status: 'processing', state: 'processing', amount: 50_000, owed: 30_000,
      remark: null, decisionReason: null, periodKey: 'once', wagerRequired: 150_000, wagerProgress: 140_000, expiresAt: null, createdAt: '2026-12-05T01:00:00.000Z' };
    const texts: Record<string, string> = {};
    for (const lang of ['EN', 'TY'] as const) {
      const client = new QueryClient();
      client.setQueryData(['promotions', 'tok', 'rewards', lang], { list: [bonus, { ...bonus, id: '8', owed: 0 }], claimable: 0, processing: 2, bonusBalance: 70_000 });
      const html = await renderStatic(lang, <BonusDetails />, { client, namespaces: ['promotions'] });
      expect(html.match(/data-testid="bonus-owed"/g)).toHaveLength(1);
      texts[lang] = textOf(html);
    }
    expect(texts.EN).toContain('₱300.00 of this bonus was released to you and could not be taken back when a bet was cancelled: you keep it, and the next release pays the other ₱200.00.');
    expect(texts.TY).toContain('Ang ₱300.00 ng bonus na ito ay nailabas na sa iyo');
  });
});

describe('the withdraw form\'s bonus note', () => {
  it('says how much bonus money is not withdrawable yet, with a link to its wagering (EN and TY); nothing without a bonus', async () => {
    setSessionToken('tok');
    const rewards = (bonusBalance: number) => ({ list: [], claimable: 0, processing: bonusBalance > 0 ? 1 : 0, bonusBalance });
    for (const [lang, words] of [['EN', 'You also have ₱100.00 of bonus money under wagering.'], ['TY', 'Mayroon ka ring ₱100.00 na bonus na may kailangang pagtaya pa.']] as const) {
      const client = new QueryClient();
      client.setQueryData(['promotions', 'tok', 'rewards', lang], rewards(100_00));
      const html = await renderStatic(lang, <LockedBonusNote />, { client, namespaces: ['promotions'] });
      expect(html).toContain('data-testid="withdraw-bonus-note"');
      expect(textOf(html)).toContain(words);
      expect(html).toContain('href="/member?tab=bonusDetails"');
    }
    const none = new QueryClient();
    none.setQueryData(['promotions', 'tok', 'rewards', 'EN'], rewards(0));
    expect(await renderStatic('EN', <LockedBonusNote />, { client: none, namespaces: ['promotions'] })).not.toContain('withdraw-bonus-note');
  });
});

describe('a first-deposit promotion closed to the player', () => {
  it('says why: deposited already, or another first-deposit bonus joined (EN and TY)', async () => {
    setSessionToken('tok');
    for (const lang of ['EN', 'TY'] as const) {
      const t = i18n.getFixedT(lang, 'promotions');
      const html = await renderStatic(lang, <>
        <PromotionCard p={promo({ id: '5', kind: 'first_deposit', requiresJoin: true, status: 'closed', closedBecause: 'joined_other' })} />
        <PromotionCard p={promo({ id: '6', kind: 'first_deposit', requiresJoin: true, status: 'closed', closedBecause: 'deposited' })} />
        <PromotionCard p={promo({ id: '7', kind: 'first_deposit', requiresJoin: true, status: 'closed' })} />
      </>, { namespaces: ['promotions'] });
      const text = textOf(html);
      expect(text).toContain(t('first_deposit_one_each'));
      expect(text).toContain(t('first_deposit_only'));
      expect(html.match(/data-testid="promo-first-deposit-only"/g)).toHaveLength(2);
    }
  });

  it("says its minimum deposit, and that a first deposit below it paid no bonus (EN and TY)", async () => {
    setSessionToken('tok');
    for (const lang of ['EN', 'TY'] as const) {
      const html = await renderStatic(lang, <>
        <PromotionCard p={promo({ id: '8', kind: 'first_deposit', requiresJoin: true, minDeposit: 200_00, status: 'join' })} />
        <PromotionCard p={promo({ id: '9', kind: 'first_deposit', requiresJoin: true, minDeposit: 200_00, status: 'closed', closedBecause: 'below_minimum' })} />
        <PromotionCard p={promo({ id: '10', kind: 'first_deposit', requiresJoin: true, minDeposit: 0 })} />
      </>, { namespaces: ['promotions'] });
      const text = textOf(html);
      expect(html.match(/data-testid="promo-min-deposit"/g)).toHaveLength(2);
      expect(text).toMatch(lang === 'EN' ? /Minimum first deposit: \D*200\.00/ : /Minimum na unang deposito: \D*200\.00/);
      expect(text).toMatch(lang === 'EN' ? /Your first deposit was below this promotion's minimum of \D*200\.00: it pays no bonus\./ : /Mas mababa sa minimum na \D*200\.00 ng promong ito ang iyong unang deposito/);
      expect(html).toMatch(/data-reason="below_minimum"/);
    }
  });
});

