import { lazy, Suspense, useState } from 'react';
import { retryImport } from '../../../lib/retry-import';
import { useTranslation } from 'react-i18next';
import type { TPromotion } from '@portal/contracts/api/promotions';
import { PROMOTION_CATEGORIES, REMARK_MAX, type TPromotionCategory } from '@portal/contracts/domain/promotions';
import { errorMessage } from '../../../lib/field-message';
import { openPopup } from '../../../lib/popups';
import { useRgExclusion } from '../../../lib/rg-exclusion';
import { useIsLoggedIn } from '../../../lib/session';
import { useLoginFlags } from '../../../lib/login-state';
import { useDateTime, useMoney } from '../../../lib/use-money';
import { ExclusionNotice } from '../../../ui/exclusion-notice';
import { FormMessage } from '../../../ui/form-field';
import { useClaimRaffle, useClaimReward, useJoinPromotion, usePromotions, useRequestReward } from '../api/promotions';
import { PromotionStatus } from './promotion-status';
import { RaffleProof } from './raffle-proof';
import { useSingleFlight } from '../../../lib/single-flight';
import { usePromotionEvents } from './use-promotion-events';
import './promotions.css';

const TrialNotice = lazy(() => retryImport(() => import('../../auth/components/trial-notice')).then((m) => ({ default: m.TrialNotice })));

/**
 * /promotions: activities by category (spec sections 3, 4), each with its rules and the button its
 * status calls for: join (sign-up, sign-in, raffle entry), request a reward with a remark, claim.
 * The server decides every status; this page only shows it.
 */
export function PromotionsPage() {
  const { t } = useTranslation('promotions');
  const [category, setCategory] = useState<TPromotionCategory | undefined>(undefined);
  const list = usePromotions(category);
  const exclusion = useRgExclusion();
  usePromotionEvents();
  return (
    <section className="container promo-page" data-testid="promotions-page">
      <h1 className="mc-title">{t('title')}</h1>
      {exclusion && <ExclusionNotice exclusion={exclusion} place="promotions" />}
      <div className="promo-tabs" role="group" aria-label={t('categories')}>
        <button type="button" className="promo-tab" aria-pressed={category === undefined} onClick={() => setCategory(undefined)} data-testid="promo-tab-all">{t('category_all')}</button>
        {PROMOTION_CATEGORIES.map((c) => (
          <button key={c} type="button" className="promo-tab" aria-pressed={category === c} onClick={() => setCategory(c)} data-testid={`promo-tab-${c}`}>{t(`category_${c}`)}</button>
        ))}
      </div>
      {list.error && <FormMessage message={errorMessage(list.error)} />}
      {list.data && list.data.list.length === 0 && <p className="promo-empty" data-testid="promo-empty">{t('empty')}</p>}
      <div className="promo-grid">
        {list.data?.list.map((p) => <PromotionCard key={p.id} p={p} />)}
      </div>
    </section>
  );
}

export function PromotionCard({ p }: { p: TPromotion }) {
  const { t } = useTranslation('promotions');
  const money = useMoney();
  const dateTime = useDateTime();
  const isLoggedIn = useIsLoggedIn();
  // An excluded player's joins, requests and claims are refused (RG_EXCLUDED): the card keeps its rules, no button.
  const isExcluded = useRgExclusion() !== null;
  const [open, setOpen] = useState(false);
  const [remark, setRemark] = useState('');
  // Game types by their names in the page language (the navigation's), not as codes (FISH, RNG).
  const gameTypeLabel = (type: string) => t(`home:gameType.${type}`, { defaultValue: type });
  const join = useJoinPromotion();
  const request = useRequestReward();
  const claim = useClaimReward();
  const claimRaffle = useClaimRaffle();
  // One request per button in flight (a double click joined twice: the second's CONFLICT showed under the join).
  const flight = useSingleFlight();
  const failure = flight.error(join.error, 'join') ?? flight.error(request.error, 'request') ?? flight.error(claim.error, 'claim') ?? flight.error(claimRaffle.error, 'raffle');
  const busy = join.isPending || request.isPending || claim.isPending || claimRaffle.isPending;
  const needLogin = () => openPopup('loginPopupModal');
  // A trial (free play) session is refused every join, request and claim (TRIAL_FORBIDDEN): it is told to
  // register, with the Register button, and sends nothing.
  const { isTrial } = useLoginFlags();
  const [isTrialNoticeOpen, setTrialNoticeOpen] = useState(false);
  const act = (run: () => void) => (!isLoggedIn ? needLogin() : isTrial ? setTrialNoticeOpen(true) : run());
  const reward = p.rewardBps > 0 ? t('reward_share', { pct: p.rewardBps / 100, cap: p.rewardCap === null ? '-' : money(p.rewardCap) }) : p.rewardAmount > 0 ? money(p.rewardAmount) : null;
  const canRequest = !isExcluded && p.kind === 'request' && (p.status === 'signed' || (p.status === 'join' && !p.requiresJoin));
  const canJoin = !isExcluded && p.status === 'join' && (p.requiresJoin || p.kind === 'daily_signin');
  const canClaim = !isExcluded && p.status === 'claim';
  // A running first-deposit promotion the server closed to this player says why: they have deposited, or
  // joined another first-deposit bonus (one each; it said "you have deposited" to one who had not).
  const closedBecause = isLoggedIn && p.kind === 'first_deposit' && p.status === 'closed' ? p.closedBecause : undefined;
  // The pill only where it adds something: next to a join, request or claim button it would repeat the button.
  const buttonSaysIt = canJoin || canClaim || (canRequest && p.status === 'join');
  return (
    <article className="promo-card" data-testid={`promo-card-${p.id}`} data-promo-kind={p.kind}>
      <div className="promo-card__head">
        <span className="promo-chip">{t(`category_${p.category}`)}</span>
        {!buttonSaysIt && <PromotionStatus status={p.status} kind={p.kind} />}
      </div>
      <h2 className="promo-card__title">{p.title}</h2>
      <p className="promo-card__meta">
        {p.endsAt ? t('period', { from: dateTime(p.startsAt), to: dateTime(p.endsAt) }) : t('period_open', { from: dateTime(p.startsAt) })}
      </p>
      {reward && <p className="promo-card__meta" data-testid="promo-reward">{t('reward', { reward })}</p>}
      {/* The deposit that earns the bonus: a smaller one paid nothing, and only the rules text (when the
          operator wrote it there) said why. */}
      {p.kind === 'first_deposit' && p.minDeposit > 0 && <p className="promo-card__meta" data-testid="promo-min-deposit">{t('min_deposit', { min: money(p.minDeposit) })}</p>}
      {closedBecause && (
        <p className="promo-card__meta" data-testid="promo-first-deposit-only" data-reason={closedBecause}>
          {closedBecause === 'below_minimum' ? t('first_deposit_below_minimum', { min: money(p.minDeposit) }) : t(closedBecause === 'deposited' ? 'first_deposit_only' : 'first_deposit_one_each')}
        </p>
      )}
      {(p.wageringBonusX > 0 || p.wageringDepositX > 0) && (
        <p className="promo-card__meta" data-testid="promo-wagering">{t(p.wageringDepositX === 0 ? 'wagering_bonus_only' : p.wageringBonusX === 0 ? 'wagering_deposit_only' : 'wagering', { bonusX: p.wageringBonusX, depositX: p.wageringDepositX, days: p.bonusDays })}</p>
      )}
      {open && (
        <div className="promo-card__rules" data-testid="promo-rules">
          <p className="promo-card__rules">{p.rules}</p>
          {p.kind === 'rebate' && (
            <table className="promo-rates" data-testid="promo-rebate-rates">
              <thead><tr><th>{t('game_type')}</th><th>{t('rebate_rate')}</th></tr></thead>
              <tbody>{Object.entries(p.rebateBps).map(([type, bps]) => <tr key={type}><td>{gameTypeLabel(type)}</td><td>{`${(bps / 100).toFixed(bps % 10 ? 2 : 1)}%`}</td></tr>)}</tbody>
            </table>
          )}
          {Object.keys(p.weights).length > 0 && (
            <table className="promo-rates" data-testid="promo-weights">
              <thead><tr><th>{t('game_type')}</th><th>{t('weight')}</th></tr></thead>
              <tbody>{Object.entries(p.weights).map(([type, w]) => <tr key={type}><td>{gameTypeLabel(type)}</td><td>{`${w}%`}</td></tr>)}</tbody>
            </table>
          )}
          {p.kind === 'raffle' && <RaffleProof promotionId={p.id} />}
        </div>
      )}
      {canRequest && isLoggedIn && (
        <label className="promo-remark">
          <span>{t('remark')}</span>
          <textarea value={remark} onChange={(e) => setRemark(e.target.value)} maxLength={REMARK_MAX} data-testid="promo-remark" />
          <span className="promo-remark__count">{`${remark.length}/${REMARK_MAX}`}</span>
        </label>
      )}
      {failure && <FormMessage message={errorMessage(failure)} />}
      <div className="promo-card__actions">
        <button type="button" className="btn btn--outline btn--sm" onClick={() => setOpen((o) => !o)} aria-expanded={open} data-testid="promo-details">{open ? t('hide_rules') : t('show_rules')}</button>
        {canJoin && (
          <button type="button" className="btn btn--primary btn--sm" disabled={busy} data-testid="promo-join" onClick={() => act(() => flight.run('join', () => join.mutateAsync(Number(p.id))))}>
            {p.kind === 'daily_signin' ? t('action_sign_in') : p.kind === 'raffle' ? t('action_enter') : t('action_join')}
          </button>
        )}
        {canRequest && (
          <button type="button" className="btn btn--primary btn--sm" disabled={busy} data-testid="promo-request" onClick={() => act(() => flight.run('request', () => request.mutateAsync({ promotionId: Number(p.id), remark: remark.trim() })))}>
            {t('action_request')}
          </button>
        )}
        {canClaim && (
          <button type="button" className="btn btn--primary btn--sm" disabled={busy} data-testid="promo-claim"
            onClick={() => act(() => (p.kind === 'raffle' ? flight.run('raffle', () => claimRaffle.mutateAsync(Number(p.id))) : flight.run('claim', () => claim.mutateAsync(Number(p.rewardId)))))}>
            {t('action_claim')}
          </button>
        )}
      </div>
      {isTrialNoticeOpen && (
        <Suspense fallback={null}>
          <TrialNotice open onClose={() => setTrialNoticeOpen(false)} />
        </Suspense>
      )}
    </article>
  );
}
