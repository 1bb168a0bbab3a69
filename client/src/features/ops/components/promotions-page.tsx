import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toMajorInput } from '@portal/contracts/domain/money';
import { decimalsContext, useCurrency, useMoneyExample } from '../../../lib/use-money';
import type { TOpsPromotion } from '@portal/contracts/api/promotions';
import { PROMOTION_CATEGORIES, PROMOTION_KINDS, type TPromotionCategory, type TPromotionKind } from '@portal/contracts/domain/promotions';
import {
  useCancelDrop, useDecideRequest, useOpsOwedRewards, useOpsPromotionDrops, useOpsPromotions, useOpsDecidedRequests, useOpsRewardRequests, useSavePromotion, useScheduleDrop, type PromotionBody,
} from '../api/promotions';
import { useOpsTime } from '../lib/format';
import { parsePesos } from '../lib/money-input';
import { fromLocalInput, toLocalInput } from '../lib/content-form';
import { useBrandOffset, useWhitelabel } from '../../../lib/whitelabel';
import { promotionMoneyForm, promotionMoneyOf, type PromotionMoneyForm } from '../lib/promotion-money';
import { GAME_TYPES } from '@portal/contracts/domain/constants';
import { useOpsCan } from './ops-gate';
import { ListEmptyRow, ErrorNote, Money, OpsField, PageHead, Pager, StatusChip, SuccessNote, TableBox, Tabs, type ChipTone } from './ops-ui';
import { missingMessageLanguages } from '@portal/contracts/api/red-envelopes';

/** "FISH=50, LIVE=100" <-> { FISH: 50, LIVE: 100 }; null when a pair is malformed. */
export function parseMap(s: string): Record<string, number> | null {
  const out: Record<string, number> = {};
  for (const part of s.split(',').map((x) => x.trim()).filter(Boolean)) {
    const m = /^([A-Za-z]{2,12})\s*=\s*(\d{1,5})$/.exec(part);
    if (!m) return null;
    out[m[1]!.toUpperCase()] = Number(m[2]);
  }
  return out;
}
const showMap = (m: Record<string, number>) => Object.entries(m).map(([k, v]) => `${k}=${v}`).join(', ');
/** A promotion's title in both languages, as the promotions list shows it (EN, then TY muted). */
function BothTitles({ title }: { title: { EN: string; TY: string } }) {
  return <>{title.EN}{title.TY && title.TY !== title.EN && <><br /><span className="ops-muted">{title.TY}</span></>}</>;
}
const int = (v: string) => (/^\d{1,10}$/.test(v.trim()) ? Number(v.trim()) : Number.NaN);

/** Rate maps of the form and each rate's upper bound (weights in percent, rebates in basis points). */
const MAP_MAX: Partial<Record<keyof Form, number>> = { weights: 100, rebates: 10_000 };

/** Whole-number fields of the form and their bounds (as the server's schema has them). */
const WHOLE: Partial<Record<keyof Form, { min: number; max: number }>> = {
  rewardBps: { min: 0, max: 100_000 }, wagerBonus: { min: 0, max: 100 }, wagerDeposit: { min: 0, max: 100 }, bonusDays: { min: 1, max: 365 }, winners: { min: 1, max: 1000 },
};

/**
 * What the server would refuse in a promotion form, found before sending, per field: a missing title or
 * rules text, a whole number out of its bounds, an end (or a raffle's draw) not after the start. Times are
 * the form's local inputs on one clock, so they compare as text. The form used to send these and show the
 * server's English field paths.
 */
export function promotionProblems(f: Form): Partial<Record<keyof Form, 'required' | 'whole' | 'after' | 'map'>> {
  const out: Partial<Record<keyof Form, 'required' | 'whole' | 'after' | 'map'>> = {};
  // Rates by game type: the catalogue's types only (SLOTS would never pay), within the schema's bounds.
  for (const [k, max] of Object.entries(MAP_MAX) as Array<[keyof Form, number]>) {
    if (k === 'rebates' && f.kind !== 'rebate') continue;
    const m = parseMap(f[k] as string);
    if (!m || Object.entries(m).some(([type, v]) => !(GAME_TYPES as readonly string[]).includes(type) || v > max)) out[k] = 'map';
  }
  for (const k of ['titleEn', 'titleTy', 'rulesEn', 'rulesTy', 'startsAt'] as const) if (!f[k].trim()) out[k] = 'required';
  const used = (k: keyof Form) => (k === 'rewardBps' ? f.kind === 'first_deposit' : k === 'winners' ? f.kind === 'raffle' : true);
  for (const [k, b] of Object.entries(WHOLE) as Array<[keyof Form, { min: number; max: number }]>) {
    if (!used(k)) continue;
    const v = String(f[k]).trim();
    if (!/^\d{1,10}$/.test(v) || Number(v) < b.min || Number(v) > b.max) out[k] = 'whole';
  }
  if (f.endsAt && f.startsAt && f.endsAt <= f.startsAt) out.endsAt = 'after';
  if (f.kind === 'raffle') {
    if (!f.drawAt) out.drawAt = 'required';
    else if (f.startsAt && f.drawAt <= f.startsAt) out.drawAt = 'after';
  }
  return out;
}

type Form = Record<'titleEn' | 'titleTy' | 'rulesEn' | 'rulesTy' | 'startsAt' | 'endsAt' | 'rewardAmount' | 'rewardBps' | 'rewardCap' | 'minDeposit' | 'wagerBonus' | 'wagerDeposit' | 'weights' | 'rebates' | 'bonusDays' | 'drawAt' | 'winners', string>
  & { category: TPromotionCategory; kind: TPromotionKind; enabled: boolean; requiresJoin: boolean };

/** The form of a promotion; its times on the merchant's clock (`offset` minutes east of UTC), its amounts with the currency's decimals (`exponent`). */
function formOf(p: TOpsPromotion | null, offset: number, exponent: number): Form {
  const local = (iso: string | null) => toLocalInput(iso, offset);
  return {
    category: p?.category ?? 'newbie', kind: p?.kind ?? 'signup', enabled: p?.enabled ?? true, requiresJoin: p?.requiresJoin ?? true,
    titleEn: p?.title.EN ?? '', titleTy: p?.title.TY ?? '', rulesEn: p?.rules.EN ?? '', rulesTy: p?.rules.TY ?? '',
    startsAt: local(p?.startsAt ?? new Date().toISOString()), endsAt: local(p?.endsAt ?? null),
    ...promotionMoneyForm(p, exponent), rewardBps: String(p?.rewardBps ?? 0), wagerBonus: String(p?.wageringBonusX ?? 0), wagerDeposit: String(p?.wageringDepositX ?? 0),
    weights: showMap(p?.weights ?? {}), rebates: showMap(p?.rebateBps ?? {}), bonusDays: String(p?.bonusDays ?? 7),
    drawAt: local(p?.drawAt ?? null), winners: p?.winners != null ? String(p.winners) : '',
  };
}

/**
 * /ops/promotions: promotions per language (EN and TY), their rule and reward terms, and the queue of
 * reward requests (approve or reject). Content and administrators author; finance and administrators
 * decide requests. The server validates and audits every change.
 */
export function PromotionsOpsPage() {
  const formatDateTime = useOpsTime();
  const { t } = useTranslation('promotions');
  const { t: to } = useTranslation('ops');
  const canEdit = useOpsCan('promotions.manage');
  const canDecide = useOpsCan('promotions.decide');
  const canDrop = useOpsCan('promotions.drops');
  const list = useOpsPromotions();
  const [editing, setEditing] = useState<TOpsPromotion | null | 'new'>(null);
  const [dropFor, setDropFor] = useState<TOpsPromotion | null>(null);
  return (
    <section className="ops-page" data-testid="ops-promotions-page">
      <PageHead title={to('nav_promotions')}>
        {canEdit && <button type="button" className="ops-btn ops-btn--primary" onClick={() => setEditing('new')} data-testid="ops-promo-new">{t('ops_new')}</button>}
      </PageHead>
      {!canEdit && <p className="ops-note ops-note--info">{t('ops_read_only')}</p>}
      {editing !== null && <PromotionForm key={editing === 'new' ? 'new' : editing.id} current={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />}
      {dropFor !== null && <DropForm key={dropFor.id} promotion={dropFor} onDone={() => setDropFor(null)} />}
      <div className="ops-panel">
        <ErrorNote error={list.error} testId="ops-promo-error" />
        <TableBox busy={list.isFetching}>
          <thead><tr><th>#</th><th>{t('ops_title_en')}</th><th>{t('ops_category')}</th><th>{t('ops_kind')}</th><th>{t('ops_starts')}</th><th>{t('ops_joins')}</th><th /></tr></thead>
          <tbody>
            {(list.data?.list.length ?? 0) === 0 && <ListEmptyRow list={list} cols={7} empty={t('ops_no_promotions')} />}
            {list.data?.list.map((p) => (
              <tr key={p.id} data-testid={`ops-promo-${p.id}`}>
                <td className="mono">{p.id}</td>
                <td className="strong">{p.title.EN}<br /><span className="ops-muted">{p.title.TY}</span></td>
                <td>{t(`category_${p.category}`)}</td>
                <td>{t(`ops_kind_${p.kind}`)} {!p.enabled && <StatusChip tone="muted">{t('status_closed')}</StatusChip>}</td>
                <td>{formatDateTime(p.startsAt)}</td>
                <td>{p.joins}</td>
                <td>
                  <span className="ops-form__actions">
                    {canEdit && <button type="button" className="ops-btn" onClick={() => setEditing(p)} data-testid="ops-promo-edit">{t('ops_edit')}</button>}
                    {canDrop && <button type="button" className="ops-btn" onClick={() => setDropFor(p)} data-testid="ops-promo-drop">{t('ops_drop_new')}</button>}
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </TableBox>
      </div>
      <DropsPanel canDrop={canDrop} />
      <RequestsPanel canDecide={canDecide} />
      <OwedPanel />
    </section>
  );
}

function PromotionForm({ current, onDone }: { current: TOpsPromotion | null; onDone: () => void }) {
  const { t } = useTranslation('promotions');
  const save = useSavePromotion();
  const offset = useBrandOffset();
  const { exponent, code: currency } = useCurrency();
  const example = useMoneyExample();
  const badMoneyText = t('ops_bad_money', { currency, a: example(100_00, { whole: true }), b: example(88_50, { whole: true }), context: decimalsContext(exponent) });
  const toIso = (v: string) => (v ? fromLocalInput(v, offset) : null);
  const [f, setF] = useState<Form>(() => formOf(current, offset, exponent));
  const [bad, setBad] = useState<string | null>(null);
  const [badMoney, setBadMoney] = useState<ReadonlyArray<keyof PromotionMoneyForm>>([]);
  const set = (k: keyof Form) => (v: string) => setF((x) => ({ ...x, [k]: v }));
  const [problems, setProblems] = useState<ReturnType<typeof promotionProblems>>({});
  const problemText = (k: keyof Form) => {
    const p = problems[k];
    if (!p) return undefined;
    const b = WHOLE[k];
    if (p === 'map') return t('ops_bad_map_field', { types: GAME_TYPES.join(', '), max: MAP_MAX[k] ?? 0 });
    return p === 'whole' && b ? t('ops_need_whole', { min: b.min, max: b.max }) : t(p === 'after' ? (k === 'drawAt' ? 'ops_draw_after_start' : 'ops_end_after_start') : 'ops_required');
  };
  const field = (k: keyof Form) => ({ invalid: !!problems[k], problem: problemText(k) });
  const submit = () => {
    const found = promotionProblems(f);
    setProblems(found);
    const money = promotionMoneyOf(f, exponent);
    setBadMoney(money.ok ? [] : money.bad);
    if (!money.ok) return setBad(badMoneyText);
    if (Object.keys(found).length > 0) return setBad(t('ops_bad_fields'));
    const weights = parseMap(f.weights);
    const rebates = parseMap(f.rebates);
    if (!weights || !rebates) return setBad(t('ops_bad_map'));
    setBad(null);
    const body: PromotionBody = {
      category: f.category, kind: f.kind, enabled: f.enabled, requiresJoin: f.requiresJoin,
      title: { EN: f.titleEn, TY: f.titleTy }, rules: { EN: f.rulesEn, TY: f.rulesTy },
      startsAt: toIso(f.startsAt) ?? '', endsAt: toIso(f.endsAt),
      ...money.value, rewardBps: int(f.rewardBps), wageringBonusX: int(f.wagerBonus), wageringDepositX: int(f.wagerDeposit),
      weights, rebateBps: rebates, bonusDays: int(f.bonusDays),
      drawAt: f.kind === 'raffle' ? toIso(f.drawAt) : null, winners: f.kind === 'raffle' && f.winners.trim() ? int(f.winners) : null,
    };
    save.mutate({ id: current?.id ?? null, body }, { onSuccess: onDone });
  };
  return (
    <div className="ops-panel ops-form" data-testid="ops-promo-form">
      <h2 className="ops-panel__title">{current ? `${t('ops_edit')} #${current.id}` : t('ops_new')}</h2>
      <div className="ops-field">
        <label className="ops-field__label" htmlFor="promo-kind">{t('ops_kind')}</label>
        <select id="promo-kind" className="ops-input" value={f.kind} disabled={current !== null} onChange={(e) => setF((x) => ({ ...x, kind: e.target.value as TPromotionKind }))} data-testid="ops-promo-kind">
          {PROMOTION_KINDS.map((k) => <option key={k} value={k}>{t(`ops_kind_${k}`)}</option>)}
        </select>
      </div>
      <div className="ops-field">
        <label className="ops-field__label" htmlFor="promo-category">{t('ops_category')}</label>
        <select id="promo-category" className="ops-input" value={f.category} onChange={(e) => setF((x) => ({ ...x, category: e.target.value as TPromotionCategory }))} data-testid="ops-promo-category">
          {PROMOTION_CATEGORIES.map((c) => <option key={c} value={c}>{t(`category_${c}`)}</option>)}
        </select>
      </div>
      <OpsField label={t('ops_title_en')} value={f.titleEn} onChange={set('titleEn')} testId="ops-promo-title-en" required maxLength={200} {...field('titleEn')} />
      <OpsField label={t('ops_title_ty')} value={f.titleTy} onChange={set('titleTy')} testId="ops-promo-title-ty" required maxLength={200} {...field('titleTy')} />
      <OpsField label={t('ops_rules_en')} value={f.rulesEn} onChange={set('rulesEn')} testId="ops-promo-rules-en" required multiline maxLength={4000} {...field('rulesEn')} />
      <OpsField label={t('ops_rules_ty')} value={f.rulesTy} onChange={set('rulesTy')} testId="ops-promo-rules-ty" required multiline maxLength={4000} {...field('rulesTy')} />
      <div className="ops-field">
        <label className="ops-field__label" htmlFor="promo-starts">{t('ops_starts')}</label>
        <input id="promo-starts" type="datetime-local" className="ops-input" value={f.startsAt} onChange={(e) => set('startsAt')(e.target.value)} data-testid="ops-promo-starts" aria-invalid={!!problems.startsAt || undefined} />
        {problems.startsAt && <span className="ops-field__hint ops-field__hint--problem">{problemText('startsAt')}</span>}
      </div>
      <div className="ops-field">
        <label className="ops-field__label" htmlFor="promo-ends">{t('ops_ends')}</label>
        <input id="promo-ends" type="datetime-local" className="ops-input" value={f.endsAt} onChange={(e) => set('endsAt')(e.target.value)} data-testid="ops-promo-ends" aria-invalid={!!problems.endsAt || undefined} />
        {problems.endsAt && <span className="ops-field__hint ops-field__hint--problem">{problemText('endsAt')}</span>}
      </div>
      <label className="ops-check"><input type="checkbox" checked={f.enabled} onChange={(e) => setF((x) => ({ ...x, enabled: e.target.checked }))} /> {t('ops_enabled')}</label>
      <label className="ops-check"><input type="checkbox" checked={f.requiresJoin} onChange={(e) => setF((x) => ({ ...x, requiresJoin: e.target.checked }))} data-testid="ops-promo-requires-join" /> {t('ops_requires_join')}</label>
      <OpsField label={t('ops_reward_amount', { currency, example: example(100_00) })} value={f.rewardAmount} onChange={set('rewardAmount')} testId="ops-promo-reward" inputMode="decimal" placeholder={toMajorInput(0, exponent)} invalid={badMoney.includes('rewardAmount')} />
      {f.kind === 'first_deposit' && (
        <>
          <OpsField label={t('ops_reward_bps')} value={f.rewardBps} onChange={set('rewardBps')} testId="ops-promo-bps" inputMode="numeric" {...field('rewardBps')} />
          <OpsField label={t('ops_reward_cap', { currency })} value={f.rewardCap} onChange={set('rewardCap')} testId="ops-promo-cap" inputMode="decimal" placeholder={toMajorInput(0, exponent)} invalid={badMoney.includes('rewardCap')} />
          <OpsField label={t('ops_min_deposit', { currency })} value={f.minDeposit} onChange={set('minDeposit')} testId="ops-promo-min-deposit" inputMode="decimal" placeholder={toMajorInput(0, exponent)} invalid={badMoney.includes('minDeposit')} />
        </>
      )}
      <OpsField label={t('ops_wagering_bonus')} value={f.wagerBonus} onChange={set('wagerBonus')} testId="ops-promo-wager-bonus" inputMode="numeric" {...field('wagerBonus')} />
      <OpsField label={t('ops_wagering_deposit')} value={f.wagerDeposit} onChange={set('wagerDeposit')} testId="ops-promo-wager-deposit" inputMode="numeric" {...field('wagerDeposit')} />
      <OpsField label={t('ops_weights')} value={f.weights} onChange={set('weights')} testId="ops-promo-weights" {...field('weights')} />
      <OpsField label={t('ops_bonus_days')} value={f.bonusDays} onChange={set('bonusDays')} testId="ops-promo-days" inputMode="numeric" {...field('bonusDays')} />
      {f.kind === 'rebate' && <OpsField label={t('ops_rebates')} value={f.rebates} onChange={set('rebates')} testId="ops-promo-rebates" {...field('rebates')} />}
      {f.kind === 'raffle' && (
        <>
          <div className="ops-field">
            <label className="ops-field__label" htmlFor="promo-draw">{t('ops_draw_at')}</label>
            <input id="promo-draw" type="datetime-local" className="ops-input" value={f.drawAt} onChange={(e) => set('drawAt')(e.target.value)} data-testid="ops-promo-draw" aria-invalid={!!problems.drawAt || undefined} />
            {problems.drawAt && <span className="ops-field__hint ops-field__hint--problem">{problemText('drawAt')}</span>}
          </div>
          <OpsField label={t('ops_winners')} value={f.winners} onChange={set('winners')} testId="ops-promo-winners" inputMode="numeric" {...field('winners')} />
          {current?.seedHash && <p className="mono ops-muted">{`${t('ops_seed_hash')}: ${current.seedHash}`}</p>}
        </>
      )}
      {bad && <p className="ops-note ops-note--error">{bad}</p>}
      <ErrorNote error={save.error} testId="ops-promo-save-error" />
      {save.isSuccess && <SuccessNote>{t('ops_saved')}</SuccessNote>}
      <div className="ops-form__actions">
        <button type="button" className="ops-btn ops-btn--primary" disabled={save.isPending} onClick={submit} data-testid="ops-promo-save">{t('ops_save')}</button>
        <button type="button" className="ops-btn" onClick={onDone}>{t('ops_cancel')}</button>
      </div>
    </div>
  );
}

function RequestsPanel({ canDecide }: { canDecide: boolean }) {
  const { exponent, code: currency } = useCurrency();
  const example = useMoneyExample();
  const { t } = useTranslation('promotions');
  const [view, setView] = useState<'pending' | 'decided'>('pending');
  const requests = useOpsRewardRequests(view === 'pending');
  const decided = useOpsDecidedRequests(view === 'decided');
  const formatDateTime = useOpsTime();
  const decide = useDecideRequest();
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  // Major units as typed ("88.50"; VND "50,000"); the API takes minor units. Empty: the promotion's own reward.
  const minor = amount.trim() ? parsePesos(amount, { exponent }) : undefined;
  const amountBad = minor === null;
  const send = (id: string, approve: boolean) => {
    if (approve && amountBad) return;
    decide.mutate({ id, body: { approve, reason: reason.trim(), ...(approve && minor != null ? { amount: minor } : {}) } }, { onSuccess: () => { setAmount(''); setReason(''); } });
  };
  return (
    <div className="ops-panel" data-testid="ops-promo-requests">
      <h2 className="ops-panel__title">{t('ops_requests')}</h2>
      <Tabs value={view} onChange={setView} label={t('ops_requests')} testPrefix="ops-promo-requests-view"
        options={[{ value: 'pending', label: t('ops_requests_pending') }, { value: 'decided', label: t('ops_requests_decided') }]} />
      <ErrorNote error={(view === 'pending' ? requests.error : decided.error) ?? decide.error} testId="ops-promo-requests-error" />
      {view === 'decided' ? (
        <TableBox busy={decided.isFetching}>
          <thead><tr><th>{t('ops_decided_at')}</th><th>{t('ops_member')}</th><th>{t('ops_promotion')}</th><th>{t('ops_outcome')}</th><th>{t('ops_amount')}</th><th>{t('ops_decided_by')}</th><th>{t('ops_reason')}</th></tr></thead>
          <tbody>
            {(decided.data?.list.length ?? 0) === 0 && <ListEmptyRow list={decided} cols={7} empty={t('ops_no_decided')} />}
            {decided.data?.list.map((r) => (
              <tr key={r.id} data-testid={`ops-promo-decided-${r.id}`} data-state={r.state}>
                <td className="nowrap">{formatDateTime(r.decidedAt)}</td>
                <td>{r.account}</td>
                <td><BothTitles title={r.promotionTitle} /></td>
                <td><StatusChip tone={r.state === 'rejected' ? 'danger' : 'success'}>{t(r.state === 'rejected' ? 'ops_outcome_rejected' : 'ops_outcome_approved')}</StatusChip></td>
                <td className="num">{r.state === 'rejected' ? '—' : <Money minor={r.amount} />}</td>
                <td>{r.decidedBy}</td>
                <td>{r.reason ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </TableBox>
      ) : (<>
      {canDecide && (
        <div className="ops-form">
          <OpsField label={t('ops_amount_optional', { currency })} value={amount} onChange={setAmount} testId="ops-promo-decide-amount" inputMode="decimal" placeholder={toMajorInput(0, exponent)} invalid={amountBad}
            hint={amountBad ? t('ops_bad_money', { currency, a: example(100_00, { whole: true }), b: example(88_50, { whole: true }), context: decimalsContext(exponent) }) : undefined} />
          <OpsField label={t('ops_reason')} value={reason} onChange={setReason} testId="ops-promo-decide-reason" maxLength={140} hint={t('ops_reject_needs_reason')} />
        </div>
      )}
      <TableBox busy={requests.isFetching}>
        <thead><tr><th>#</th><th>{t('ops_member')}</th><th>{t('ops_promotion')}</th><th>{t('ops_remark')}</th><th /></tr></thead>
        <tbody>
          {(requests.data?.list.length ?? 0) === 0 && <ListEmptyRow list={requests} cols={5} empty={t('ops_no_requests')} />}
          {requests.data?.list.map((r) => (
            <tr key={r.id} data-testid={`ops-promo-request-${r.id}`}>
              <td className="mono">{r.id}</td>
              <td>{r.account}</td>
              <td><BothTitles title={r.promotionTitle} /></td>
              <td className="ops-wrap">{r.remark ?? '-'}</td>
              <td>
                {canDecide && (
                  <span className="ops-form__actions">
                    <button type="button" className="ops-btn ops-btn--primary" disabled={decide.isPending || amountBad} onClick={() => send(r.id, true)} data-testid="ops-promo-approve">{t('ops_approve')}</button>
                    <button type="button" className="ops-btn ops-btn--danger" disabled={decide.isPending || reason.trim().length < 2} title={reason.trim().length < 2 ? t('ops_reject_needs_reason') : undefined} onClick={() => send(r.id, false)} data-testid="ops-promo-reject">{t('ops_reject')}</button>
                  </span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </TableBox>
      </>)}
    </div>
  );
}


const DROP_TONES: Record<string, ChipTone> = { scheduled: 'info', dropped: 'success', cancelled: 'muted', failed: 'danger' };
const count = (v: string, min: number, max: number) => (/^\d{1,6}$/.test(v.trim()) && Number(v) >= min && Number(v) <= max ? Number(v) : null);

/**
 * A red envelope drop attached to a promotion: at the chosen time one envelope drops to the promotion's
 * participants (joined it or had a reward of it), funded as a drop from /ops/envelopes is. The server
 * checks the terms again and audits.
 */
function DropForm({ promotion, onDone }: { promotion: TOpsPromotion; onDone: () => void }) {
  const { exponent } = useCurrency();
  const { t, i18n } = useTranslation('promotions');
  const schedule = useScheduleDrop();
  const offset = useBrandOffset();
  const [f, setF] = useState({ total: '', count: '', min: toMajorInput(1, exponent), minutes: '60', runAt: toLocalInput(new Date(Date.now() + 3600_000).toISOString(), offset), en: '', ty: '' });
  const [tried, setTried] = useState(false);
  const set = (k: keyof typeof f) => (v: string) => setF((x) => ({ ...x, [k]: v }));
  const total = parsePesos(f.total, { exponent });
  const min = parsePesos(f.min, { exponent });
  const shares = count(f.count, 1, 20_000);
  const minutes = count(f.minutes, 1, 10_080);
  // The message in every language of the site or in none (as /ops/envelopes; the server refuses one alone).
  const languages = useWhitelabel().data?.brand.supportedLanguages ?? ['EN', 'TY'];
  const missing = missingMessageLanguages(f, languages);
  const problems = {
    total: total === null, count: shares === null, min: min === null || (total !== null && shares !== null && min * shares > total),
    minutes: minutes === null, runAt: Number.isNaN(new Date(fromLocalInput(f.runAt, offset)).getTime()),
    en: missing.includes('EN'), ty: missing.includes('TY'),
  };
  const submit = () => {
    setTried(true);
    if (Object.values(problems).some(Boolean)) return;
    schedule.mutate({
      promotionId: promotion.id,
      body: { totalAmount: total!, count: shares!, minShare: min!, expiresInMinutes: minutes!, runAt: fromLocalInput(f.runAt, offset), message: { en: f.en.trim() || undefined, ty: f.ty.trim() || undefined } },
    }, { onSuccess: onDone });
  };
  return (
    <div className="ops-panel ops-form" data-testid="ops-promo-drop-form">
      <h2 className="ops-panel__title">{t('ops_drop_title', { title: (i18n.language === 'TY' && promotion.title.TY) || promotion.title.EN })}</h2>
      <p className="ops-note ops-note--info">{t('ops_drop_hint')}</p>
      <ErrorNote error={schedule.error} testId="ops-promo-drop-error" />
      <OpsField label={t('ops_drop_total')} value={f.total} onChange={set('total')} testId="ops-promo-drop-total" inputMode="decimal" placeholder={toMajorInput(0, exponent)} required invalid={tried && problems.total} />
      <OpsField label={t('ops_drop_count')} value={f.count} onChange={set('count')} testId="ops-promo-drop-count" inputMode="numeric" required invalid={tried && problems.count} />
      <OpsField label={t('ops_drop_min')} value={f.min} onChange={set('min')} testId="ops-promo-drop-min" inputMode="decimal" required invalid={tried && problems.min}
        hint={tried && problems.min && min !== null ? t('ops_drop_min_too_high') : undefined} />
      <OpsField label={t('ops_drop_minutes')} value={f.minutes} onChange={set('minutes')} testId="ops-promo-drop-minutes" inputMode="numeric" required invalid={tried && problems.minutes} />
      <div className="ops-field">
        <label className="ops-field__label" htmlFor="promo-drop-at">{t('ops_drop_at')}</label>
        <input id="promo-drop-at" type="datetime-local" className="ops-input" value={f.runAt} onChange={(e) => set('runAt')(e.target.value)} data-testid="ops-promo-drop-at"
          aria-invalid={(tried && problems.runAt) || undefined} />
      </div>
      <OpsField label={t('ops_drop_message_en')} value={f.en} onChange={set('en')} testId="ops-promo-drop-en" maxLength={80} invalid={tried && problems.en} problem={t('ops:env_message_every')} />
      <OpsField label={t('ops_drop_message_ty')} value={f.ty} onChange={set('ty')} testId="ops-promo-drop-ty" maxLength={80} invalid={tried && problems.ty} problem={t('ops:env_message_every')} />
      <div className="ops-form__actions">
        <button type="button" className="ops-btn ops-btn--primary" disabled={schedule.isPending} onClick={submit} data-testid="ops-promo-drop-save">{t('ops_drop_save')}</button>
        <button type="button" className="ops-btn" onClick={onDone}>{t('ops_cancel')}</button>
      </div>
    </div>
  );
}

/** The drops attached to promotions: when, how much, what became of each; a scheduled one can be cancelled. */
function DropsPanel({ canDrop }: { canDrop: boolean }) {
  const formatDateTime = useOpsTime();
  const { t } = useTranslation('promotions');
  const drops = useOpsPromotionDrops();
  const cancel = useCancelDrop();
  return (
    <div className="ops-panel" data-testid="ops-promo-drops">
      <h2 className="ops-panel__title">{t('ops_drops')}</h2>
      <ErrorNote error={drops.error ?? cancel.error} testId="ops-promo-drops-error" />
      <TableBox busy={drops.isFetching}>
        <thead><tr><th>#</th><th>{t('ops_promotion')}</th><th>{t('ops_drop_at')}</th><th className="num">{t('ops_drop_total')}</th><th className="num">{t('ops_drop_count')}</th><th>{t('ops_drop_state')}</th><th>{t('ops_drop_by')}</th><th /></tr></thead>
        <tbody>
          {(drops.data?.list.length ?? 0) === 0 && <ListEmptyRow list={drops} cols={8} empty={t('ops_no_drops')} />}
          {drops.data?.list.map((d) => (
            <tr key={d.id} data-testid={`ops-promo-drop-${d.id}`}>
              <td className="mono">{d.id}</td>
              <td><BothTitles title={d.promotionTitle} /></td>
              <td className="nowrap">{formatDateTime(d.runAt)}</td>
              <td className="num"><Money minor={d.totalAmount} /></td>
              <td className="num">{d.count}</td>
              <td>
                <StatusChip tone={DROP_TONES[d.status] ?? 'muted'} testId="ops-promo-drop-state">{t(`ops_drop_state_${d.status}`)}</StatusChip>
                {d.envelopeId && <span className="ops-muted"> {t('ops_drop_envelope', { id: d.envelopeId })}</span>}
                {d.failure && <><br /><span className="ops-muted">{d.failure}</span></>}
              </td>
              <td>{d.cancelledBy ? `${d.createdBy} / ${d.cancelledBy}` : d.createdBy}</td>
              <td>
                {canDrop && d.status === 'scheduled' && (
                  <button type="button" className="ops-btn ops-btn--danger" disabled={cancel.isPending} onClick={() => cancel.mutate(d.id)} data-testid="ops-promo-drop-cancel">{t('ops_drop_cancel')}</button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </TableBox>
    </div>
  );
}

/**
 * Bonus owed (migration 062): a converted bonus taken back after a rolled-back bet while the wallet held
 * less than it; `owed` is what the player kept (balances never go negative).
 */
const OWED_PAGE_SIZE = 20;
function OwedPanel() {
  const formatDateTime = useOpsTime();
  const { t } = useTranslation('promotions');
  const [pageNo, setPageNo] = useState(1);
  const owed = useOpsOwedRewards(pageNo, OWED_PAGE_SIZE);
  return (
    <div className="ops-panel" data-testid="ops-promo-owed">
      <h2 className="ops-panel__title">{t('ops_owed')}</h2>
      <p className="ops-note ops-note--info">{t('ops_owed_hint')}</p>
      <ErrorNote error={owed.error} testId="ops-promo-owed-error" />
      <TableBox busy={owed.isFetching}>
        <thead><tr><th>#</th><th>{t('ops_member')}</th><th>{t('ops_promotion')}</th><th className="num">{t('ops_owed_amount')}</th><th className="num">{t('ops_owed_owed')}</th><th>{t('ops_owed_updated')}</th></tr></thead>
        <tbody>
          {(owed.data?.list.length ?? 0) === 0 && <ListEmptyRow list={owed} cols={6} empty={t('ops_no_owed')} />}
          {owed.data?.list.map((r) => (
            <tr key={r.id} data-testid={`ops-promo-owed-${r.id}`}>
              <td className="mono">{r.id}</td>
              <td>{r.account}</td>
              <td><BothTitles title={r.promotionTitle} /></td>
              <td className="num"><Money minor={r.amount} /></td>
              <td className="num strong" data-testid="ops-promo-owed-value"><Money minor={r.owed} /></td>
              <td className="nowrap">{formatDateTime(r.updatedAt)}</td>
            </tr>
          ))}
        </tbody>
      </TableBox>
      {owed.data && <Pager pageNo={owed.data.pageNo} pageSize={owed.data.pageSize} total={owed.data.total} onPage={setPageNo} testPrefix="ops-promo-owed-pager" />}
    </div>
  );
}
