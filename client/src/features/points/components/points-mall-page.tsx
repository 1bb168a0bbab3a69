import { useState } from 'react';
import type { FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TPointReward } from '@portal/contracts/api/points';
import { cashForPoints, MAX_REDEEM_QUANTITY } from '@portal/contracts/domain/points';
import { errorMessage } from '../../../lib/field-message';
import { newRequestId } from '../../../lib/money-input';
import { openPopup } from '../../../lib/popups';
import { useSessionToken } from '../../../lib/session';
import { useRgExclusion } from '../../../lib/rg-exclusion';
import { useTransactionPasswordStatus } from '../../../lib/transaction-password';
import { useDateTime, useMoney } from '../../../lib/use-money';
import { useRealtimeEvent } from '../../../realtime/realtime-context';
import { useAuth } from '../../auth/hooks/use-auth';
import { ExclusionNotice } from '../../../ui/exclusion-notice';
import { FormField, FormMessage } from '../../../ui/form-field';
import { Modal } from '../../../ui/modal';
import { Pager, pagesOf } from '../../../ui/pager';
import { TransactionPasswordLink } from '../../../ui/transaction-password-link';
import { pointsKey, REDEEM_FILTERS, useConvertPoints, usePointBalance, usePointConfig, usePointHistory, usePointRewards, useRedeemReward, useRedeems, type RedeemFilter } from '../api/points';
import './points.css';
import type { FieldMessage } from '../../../lib/field-message';

const TABS = ['mall', 'details', 'redeems', 'rules'] as const;
type Tab = (typeof TABS)[number];

/** Who sees the member view: signed in with a real account (a trial account has no points, like a guest). */
function useViewer(): 'member' | 'trial' | 'guest' {
  const { isLogin, isTrial } = useAuth();
  return !isLogin ? 'guest' : isTrial ? 'trial' : 'member';
}

/** Live points: a balance change or a redeem decision refetches the points lists and balance. */
function usePointsEvents() {
  const qc = useQueryClient();
  const token = useSessionToken();
  useRealtimeEvent('points.changed', () => void qc.invalidateQueries({ queryKey: pointsKey(token) }));
  useRealtimeEvent('points.redeem', () => void qc.invalidateQueries({ queryKey: pointsKey(token) }));
}

/**
 * /pointMall: the points balance, the rewards catalogue with a redeem dialog (transaction password),
 * conversion to cash, and tabs for the points details, redeem history and rules. Guests see the
 * catalogue and the rules with a sign-in prompt; a trial account the same with a prompt to register a
 * real one (its points calls are refused). The server decides every number; this page shows it.
 */
export function PointsMallPage() {
  const { t } = useTranslation('points');
  const viewer = useViewer();
  const isMember = viewer === 'member';
  const [tab, setTab] = useState<Tab>('mall');
  usePointsEvents();
  return (
    <section className="container pts-page" data-testid="points-page">
      <h1 className="mc-title">{t('title')}</h1>
      {viewer === 'member' ? <BalanceCard /> : viewer === 'trial' ? (
        <div className="pts-card pts-guest" data-testid="points-trial">
          <p>{t('trial_prompt')}</p>
          <button type="button" className="btn btn--primary btn--sm" onClick={() => openPopup('registerModal')} data-testid="points-register">{t('register')}</button>
        </div>
      ) : (
        <div className="pts-card pts-guest" data-testid="points-guest">
          <p>{t('guest_prompt')}</p>
          <button type="button" className="btn btn--primary btn--sm" onClick={() => openPopup('loginPopupModal')} data-testid="points-sign-in">{t('sign_in')}</button>
        </div>
      )}
      <div className="pts-tabs" role="tablist" aria-label={t('title')}>
        {TABS.filter((x) => isMember || x === 'mall' || x === 'rules').map((x) => (
          <button key={x} type="button" role="tab" className="pts-tab" aria-selected={tab === x} onClick={() => setTab(x)} data-testid={`points-tab-${x}`}>{t(`tab_${x}`)}</button>
        ))}
      </div>
      {tab === 'mall' && <Catalogue />}
      {tab === 'details' && isMember && <Details />}
      {tab === 'redeems' && isMember && <RedeemHistory />}
      {tab === 'rules' && <Rules />}
    </section>
  );
}

function BalanceCard() {
  const { t } = useTranslation('points');
  const balance = usePointBalance();
  const exclusion = useRgExclusion();
  const b = balance.data;
  return (
    <div className="pts-summary">
      <div className="pts-card pts-balance">
        <span className="pts-muted">{t('balance')}</span>
        <strong className="pts-balance__value" data-testid="points-balance">{b ? b.balance.toLocaleString() : '—'}</strong>
        {b && b.owed > 0 && <span className="pts-warn" data-testid="points-owed">{t('owed', { count: b.owed })}</span>}
        {b && <span className="pts-muted">{t('earned', { count: b.earned.toLocaleString() })}</span>}
        <span className="pts-muted">{t('never_expire')}</span>
      </div>
      {/* An excluded player's converts and redeems are refused (RG_EXCLUDED): no form that fails. So are
          everyone's while the merchant has closed the mall (MODULE_DISABLED). */}
      {exclusion ? <ExclusionNotice exclusion={exclusion} place="points" /> : useIsMallClosed() ? <ClosedNotice /> : <ConvertForm balance={b?.balance ?? 0} />}
    </div>
  );
}

/** The merchant has switched the points mall off (points config `enabled`): nothing can be redeemed or converted. */
function useIsMallClosed(): boolean {
  return usePointConfig().data?.enabled === false;
}

function ClosedNotice() {
  const { t } = useTranslation('points');
  return <div className="pts-card" role="status" data-testid="points-closed"><p>{t('closed')}</p></div>;
}

function ConvertForm({ balance }: { balance: number }) {
  const { t } = useTranslation('points');
  const money = useMoney();
  const cfg = usePointConfig().data;
  const convert = useConvertPoints();
  // Not set yet: the form cannot succeed; it says where to set it instead of asking for it.
  const hasNoPassword = useTransactionPasswordStatus().data?.isSet === false;
  const [value, setValue] = useState('');
  const [password, setPassword] = useState('');
  const [requestId, setRequestId] = useState(newRequestId);
  const [problem, setProblem] = useState<string | null>(null);
  const points = /^\d{1,9}$/.test(value.trim()) ? Number(value.trim()) : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!cfg) return;
    if (points === null || points < cfg.minConvert) return setProblem(t('convert_min', { count: cfg.minConvert }));
    if (points > balance) return setProblem(t('convert_over'));
    if (!password) return setProblem(t('password_required'));
    setProblem(null);
    convert.mutate({ points, withdrawPassword: password, requestId }, {
      onSuccess: () => { setValue(''); setPassword(''); setRequestId(newRequestId()); },
    });
  };
  return (
    <form className="pts-card pts-convert" onSubmit={submit} noValidate data-testid="points-convert">
      <h2 className="pts-h2">{t('convert_title')}</h2>
      {cfg && <p className="pts-muted">{t('convert_rate', { cash: money(cashForPoints(1, cfg.minorPerPoint)), min: cfg.minConvert })}</p>}
      <FormField name="convertPoints" label={t('convert_points')} value={value} onChange={(v) => { setValue(v); setRequestId(newRequestId()); }} inputMode="numeric" required
        hint={cfg && points !== null ? t('convert_preview', { cash: money(cashForPoints(points, cfg.minorPerPoint)) }) : undefined} />
      {hasNoPassword ? <TransactionPasswordLink isSet={false} /> : (
        <FormField name="convertPassword" label={t('withdraw_password')} type="password" value={password} onChange={setPassword} required autoComplete="off" />
      )}
      {problem && <p className="pts-error" role="alert" data-testid="points-convert-problem">{problem}</p>}
      {convert.error && <FormMessage message={errorMessage(convert.error)} />}
      {convert.data && !convert.isPending && <p className="pts-ok" data-testid="points-convert-done">{t('convert_done', { points: convert.data.points.toLocaleString(), cash: money(convert.data.amount) })}</p>}
      <button type="submit" className="btn btn--primary btn--sm" disabled={convert.isPending || !cfg?.enabled || hasNoPassword} data-testid="points-convert-submit">{t('convert_submit')}</button>
    </form>
  );
}

function Catalogue() {
  const { t } = useTranslation('points');
  const rewards = usePointRewards();
  const viewer = useViewer();
  const isClosed = useIsMallClosed();
  const [chosen, setChosen] = useState<TPointReward | null>(null);
  return (
    <>
      {rewards.error && <FormMessage message={errorMessage(rewards.error)} />}
      {rewards.data && rewards.data.list.length === 0 && <p className="pts-muted" data-testid="points-empty">{t('empty_catalogue')}</p>}
      {/* a member reads it above, where the convert form was */}
      {isClosed && viewer !== 'member' && <p className="pts-muted" data-testid="points-closed-catalogue">{t('closed')}</p>}
      <div className="pts-grid">
        {rewards.data?.list.map((r) => <RewardCard key={r.id} r={r} onRedeem={() => setChosen(r)} />)}
      </div>
      {chosen && <RedeemDialog reward={chosen} onClose={() => setChosen(null)} />}
    </>
  );
}

function RewardCard({ r, onRedeem }: { r: TPointReward; onRedeem: () => void }) {
  const { t } = useTranslation('points');
  const money = useMoney();
  const viewer = useViewer();
  const isExcluded = useRgExclusion() !== null;
  const isClosed = useIsMallClosed();
  const isOut = r.quantity <= 0;
  // A member short of the points is told how many more before it opens the dialog (the server refuses it too).
  const points = usePointBalance().data?.balance;
  const short = viewer === 'member' && points !== undefined && points < r.pointsRequired ? r.pointsRequired - points : 0;
  return (
    <article className="pts-card pts-reward" data-testid={`points-reward-${r.id}`}>
      <h2 className="pts-reward__title">{r.title}</h2>
      <p className="pts-reward__points"><strong>{r.pointsRequired.toLocaleString()}</strong> {t('points_unit')}</p>
      <p className="pts-muted">{r.amount > 0 ? t('cash_reward', { cash: money(r.amount) }) : t('item_reward')}</p>
      {r.remark && <p className="pts-reward__remark">{r.remark}</p>}
      <p className="pts-muted" data-testid={`points-stock-${r.id}`}>{isOut ? t('out_of_stock') : t('left', { count: r.quantity })}</p>
      {short > 0 && !isOut && !isExcluded && !isClosed && <p className="pts-muted" data-testid={`points-short-${r.id}`}>{t('not_enough', { count: short.toLocaleString() })}</p>}
      {!(viewer === 'member' && isExcluded) && !isClosed && <button type="button" className="btn btn--primary btn--sm" disabled={isOut || short > 0} onClick={() => (viewer === 'member' ? onRedeem() : openPopup(viewer === 'trial' ? 'registerModal' : 'loginPopupModal'))} data-testid={`points-redeem-${r.id}`}>
        {viewer === 'member' ? t('redeem') : viewer === 'trial' ? t('register_to_redeem') : t('sign_in_to_redeem')}
      </button>}
    </article>
  );
}

function RedeemDialog({ reward, onClose }: { reward: TPointReward; onClose: () => void }) {
  const { t } = useTranslation('points');
  const redeem = useRedeemReward();
  const hasNoPassword = useTransactionPasswordStatus().data?.isSet === false;
  const balance = usePointBalance().data?.balance ?? 0;
  const [quantity, setQuantity] = useState('1');
  const [password, setPassword] = useState('');
  const [requestId, setRequestId] = useState(newRequestId);
  // Each problem under its own field (the quantity's range showed under the password).
  const [problem, setProblem] = useState<{ field: 'quantity' | 'withdrawPassword'; message: FieldMessage } | null>(null);
  const max = Math.min(MAX_REDEEM_QUANTITY, reward.quantity);
  const q = /^\d{1,2}$/.test(quantity.trim()) ? Number(quantity.trim()) : null;
  const cost = q === null ? null : q * reward.pointsRequired;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    // A new try: the last answer (a wrong password) no longer stands.
    redeem.reset();
    if (q === null || q < 1 || q > max) return setProblem({ field: 'quantity', message: { key: 'points:quantity_range', values: { max } } });
    if (cost !== null && cost > balance) return setProblem({ field: 'quantity', message: { key: 'points:not_enough', values: { count: (cost - balance).toLocaleString() } } });
    if (!password) return setProblem({ field: 'withdrawPassword', message: { key: 'points:password_required' } });
    setProblem(null);
    redeem.mutate({ rewardId: Number(reward.id), quantity: q, withdrawPassword: password, requestId });
  };
  return (
    <Modal name="pointsRedeemModal" open onClose={onClose} title={t('redeem_title', { title: reward.title })}>
      {redeem.data ? (
        <div className="pts-dialog" data-testid="points-redeem-done">
          <p className="pts-ok">{t('redeem_done', { points: redeem.data.redeem.points.toLocaleString() })}</p>
          <p className="pts-muted">{t('redeem_done_hint')}</p>
          <button type="button" className="btn btn--primary btn--sm" onClick={onClose} data-testid="points-redeem-close">{t('close')}</button>
        </div>
      ) : (
        <form className="pts-dialog" onSubmit={submit} noValidate data-testid="points-redeem-form">
          <FormField name="quantity" label={t('quantity')} value={quantity} onChange={(v) => { setQuantity(v); setRequestId(newRequestId()); }} inputMode="numeric" required
            error={problem?.field === 'quantity' ? problem.message : undefined}
            hint={cost !== null ? t('cost', { count: cost.toLocaleString(), balance: balance.toLocaleString() }) : undefined} />
          {hasNoPassword ? <TransactionPasswordLink isSet={false} onLeave={onClose} /> : (
            <FormField name="withdrawPassword" label={t('withdraw_password')} type="password" value={password} onChange={setPassword} required autoComplete="off"
              error={problem?.field === 'withdrawPassword' ? problem.message : undefined} />
          )}
          {redeem.error && <FormMessage message={errorMessage(redeem.error)} />}
          <div className="pts-dialog__actions">
            <button type="button" className="btn btn--ghost btn--sm" onClick={onClose}>{t('cancel')}</button>
            <button type="submit" className="btn btn--primary btn--sm" disabled={redeem.isPending || hasNoPassword} data-testid="points-redeem-submit">{t('redeem_confirm')}</button>
          </div>
        </form>
      )}
    </Modal>
  );
}

export function Details() {
  const { t } = useTranslation('points');
  const dateTime = useDateTime();
  const [page, setPage] = useState(1);
  const history = usePointHistory(page);
  const d = history.data;
  return (
    <div className="pts-card" data-testid="points-details">
      {history.error && <FormMessage message={errorMessage(history.error)} />}
      {d && d.list.length === 0 && <p className="pts-muted">{t('empty_details')}</p>}
      {d && d.list.length > 0 && (
        <table className="pts-table">
          <thead><tr><th>{t('col_time')}</th><th>{t('col_kind')}</th><th className="num">{t('col_change')}</th><th className="num">{t('col_balance')}</th></tr></thead>
          <tbody>
            {d.list.map((e) => (
              <tr key={e.id} data-testid={`points-entry-${e.id}`}>
                <td data-label={t('col_time')}>{dateTime(e.createdAt)}</td>
                <td data-label={t('col_kind')}>{t(`kind_${e.kind}`)}{e.owedDelta !== 0 && <div className="pts-muted">{t('owed_change', { count: e.owedDelta })}</div>}</td>
                <td data-label={t('col_change')} className={`num ${e.delta >= 0 ? 'pts-plus' : 'pts-minus'}`}>{e.delta > 0 ? `+${e.delta}` : e.delta}</td>
                <td data-label={t('col_balance')} className="num">{e.balanceAfter.toLocaleString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager page={page} pages={pagesOf(d)} onPage={setPage} prefix="points-details" />
    </div>
  );
}

export function RedeemHistory() {
  const { t } = useTranslation('points');
  const dateTime = useDateTime();
  const money = useMoney();
  const [page, setPage] = useState(1);
  const [filter, setFilter] = useState<RedeemFilter>('all');
  const redeems = useRedeems(page, filter);
  const d = redeems.data;
  return (
    <div className="pts-card" data-testid="points-redeems">
      <label className="pts-filter">
        {t('filter_status')}{' '}
        <select value={filter} onChange={(e) => { setFilter(e.target.value as RedeemFilter); setPage(1); }} data-testid="points-redeems-filter">
          {REDEEM_FILTERS.map((f) => <option key={f} value={f}>{t(`status_${f}`)}</option>)}
        </select>
      </label>
      {redeems.error && <FormMessage message={errorMessage(redeems.error)} />}
      {d && d.list.length === 0 && <p className="pts-muted">{t(filter === 'all' ? 'empty_redeems' : 'empty_redeems_filtered')}</p>}
      {d && d.list.length > 0 && (
        <table className="pts-table">
          <thead><tr><th>{t('col_time')}</th><th>{t('col_reward')}</th><th className="num">{t('quantity')}</th><th className="num">{t('col_points')}</th><th>{t('col_status')}</th></tr></thead>
          <tbody>
            {d.list.map((r) => (
              <tr key={r.id} data-testid={`points-redeem-row-${r.id}`}>
                <td data-label={t('col_time')}>{dateTime(r.createdAt)}</td>
                <td data-label={t('col_reward')}>{r.title}{r.amount > 0 && <div className="pts-muted">{money(r.amount)}</div>}{r.reason && <div className="pts-muted">{r.reason}</div>}</td>
                <td data-label={t('quantity')} className="num">{r.quantity}</td>
                <td data-label={t('col_points')} className="num">{r.points.toLocaleString()}</td>
                <td data-label={t('col_status')}><span className={`pts-status pts-status--${r.status}`} data-testid={`points-redeem-status-${r.id}`}>{t(`status_${r.status}`)}</span></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager page={page} pages={pagesOf(d)} onPage={setPage} prefix="points-redeems" />
    </div>
  );
}

function Rules() {
  const { t } = useTranslation('points');
  const money = useMoney();
  const cfg = usePointConfig().data;
  return (
    <div className="pts-card pts-rules" data-testid="points-rules">
      <h2 className="pts-h2">{t('rules_title')}</h2>
      <ul>
        {cfg && <li data-testid="points-rule-ratio">{t('rule_earn', { bet: money(cfg.betPerPoint) })}</li>}
        <li>{t('rule_valid')}</li>
        <li>{t('rule_rollback')}</li>
        <li>{t('rule_never_expire')}</li>
        <li>{t('rule_redeem')}</li>
        {cfg && <li>{t('rule_convert', { cash: money(cashForPoints(1, cfg.minorPerPoint)), min: cfg.minConvert })}</li>}
        <li>{t('rule_password')}</li>
      </ul>
    </div>
  );
}
