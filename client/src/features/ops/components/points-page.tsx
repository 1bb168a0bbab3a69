import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAmount, useCurrency } from '../../../lib/use-money';
import type { TOpsReward } from '@portal/contracts/api/points';
import type { TRedeemStatus } from '@portal/contracts/domain/points';
import { useDecideRedeem, useOpsPointConfig, useOpsPointRewards, useOpsRedeems, useSavePointConfig, useSaveReward } from '../api/points';
import { useOpsTime } from '../lib/format';
import { parsePesos, toPesosInput } from '../lib/money-input';
import { useOpsCan } from './ops-gate';
import { EmptyRow, ErrorNote, OpsField, PageHead, Pager, StatusChip, TableBox, Tabs } from './ops-ui';

type Section = 'redeems' | 'rewards' | 'config';
type Form = { id: string | null; titleEn: string; titleTy: string; remarkEn: string; remarkTy: string; points: string; amount: string; quantity: string; active: boolean; sort: string };
const EMPTY: Form = { id: null, titleEn: '', titleTy: '', remarkEn: '', remarkTy: '', points: '', amount: '', quantity: '', active: true, sort: '0' };
const int = (v: string, min: number, max: number) => (/^\d{1,10}$/.test(v.trim()) && Number(v) >= min && Number(v) <= max ? Number(v) : null);
const tone = (s: TRedeemStatus) => (s === 'processing' ? 'warn' : s === 'approved' ? 'success' : 'danger');

/** /ops/points: the redeem queue (approve or reject), the rewards catalogue and the merchant's points rules. */
export function PointsOpsPage() {
  const { t } = useTranslation('ops');
  const [section, setSection] = useState<Section>('redeems');
  return (
    <section className="ops-page" data-testid="ops-points-page">
      <PageHead title={t('nav_points')} />
      <Tabs value={section} onChange={setSection} label={t('nav_points')} testPrefix="ops-points-tab"
        options={[{ value: 'redeems', label: t('pts_redeems') }, { value: 'rewards', label: t('pts_rewards') }, { value: 'config', label: t('pts_config') }]} />
      {section === 'redeems' && <Redeems />}
      {section === 'rewards' && <Rewards />}
      {section === 'config' && <Config />}
    </section>
  );
}

function Redeems() {
  const formatAmount = useAmount();
  const formatDateTime = useOpsTime();
  const { t } = useTranslation('ops');
  const canDecide = useOpsCan('points.decide');
  const [status, setStatus] = useState<TRedeemStatus | 'all'>('processing');
  const [pageNo, setPageNo] = useState(1);
  const [reason, setReason] = useState('');
  const list = useOpsRedeems(status === 'all' ? undefined : status, pageNo);
  const decide = useDecideRedeem();
  const send = (id: string, approve: boolean) => decide.mutate({ id, approve, reason: reason.trim() }, { onSuccess: () => setReason('') });
  return (
    <div className="ops-panel">
      <Tabs value={status} onChange={(v) => { setStatus(v); setPageNo(1); }} label={t('col_status')} testPrefix="ops-points-status"
        options={(['processing', 'approved', 'rejected', 'all'] as const).map((s) => ({ value: s, label: t(`pts_status_${s}`) }))} />
      {!canDecide && <p className="ops-note ops-note--info">{t('pts_decide_roles')}</p>}
      {canDecide && <OpsField label={t('pts_reason')} value={reason} onChange={setReason} testId="ops-points-reason" maxLength={140} hint={t('pts_reason_hint')} />}
      <ErrorNote error={list.error ?? decide.error} testId="ops-points-error" />
      <TableBox busy={list.isFetching}>
        <thead>
          <tr><th>#</th><th>{t('pts_col_time')}</th><th>{t('pts_col_player')}</th><th>{t('pts_col_reward')}</th><th className="num">{t('pts_col_points')}</th><th className="num">{t('pts_col_cash')}</th><th>{t('col_status')}</th><th /></tr>
        </thead>
        <tbody>
          {(list.data?.list ?? []).map((r) => (
            <tr key={r.id} data-testid={`ops-points-redeem-${r.id}`}>
              <td className="mono">R{r.id}</td>
              <td>{formatDateTime(r.createdAt)}{r.decidedAt && <div className="ops-muted">{formatDateTime(r.decidedAt)} · {r.decidedBy}</div>}</td>
              <td>{r.account}</td>
              <td>{r.title}<div className="ops-muted">× {r.quantity}</div>{r.reason && <div className="ops-muted">{r.reason}</div>}</td>
              <td className="num">{r.points.toLocaleString()}</td>
              <td className="num">{r.amount > 0 ? formatAmount(r.amount) : '—'}</td>
              <td><StatusChip tone={tone(r.status)} testId={`ops-points-status-${r.id}`}>{t(`pts_status_${r.status}`)}</StatusChip></td>
              <td>
                {r.status === 'processing' && canDecide && (
                  <div className="ops-form__actions">
                    <button type="button" className="ops-btn ops-btn--primary" disabled={decide.isPending} onClick={() => send(r.id, true)} data-testid={`ops-points-approve-${r.id}`}>{t('pts_approve')}</button>
                    <button type="button" className="ops-btn ops-btn--danger" disabled={decide.isPending} onClick={() => send(r.id, false)} data-testid={`ops-points-reject-${r.id}`}>{t('pts_reject')}</button>
                  </div>
                )}
              </td>
            </tr>
          ))}
          {list.data && !list.data.list.length && <EmptyRow cols={8}>{t('pts_no_redeems')}</EmptyRow>}
        </tbody>
      </TableBox>
      {list.data && <Pager pageNo={pageNo} pageSize={20} total={list.data.total} onPage={setPageNo} testPrefix="ops-points-pager" />}
    </div>
  );
}

function Rewards() {
  const formatAmount = useAmount();
  const { exponent } = useCurrency();
  const { t } = useTranslation('ops');
  const canManage = useOpsCan('points.manage');
  const list = useOpsPointRewards();
  const save = useSaveReward();
  const empty: Form = { ...EMPTY, amount: toPesosInput(0, exponent) };
  const [form, setForm] = useState<Form>(empty);
  const [isTried, setTried] = useState(false);
  const points = int(form.points, 1, 1_000_000_000);
  const amount = parsePesos(form.amount, { allowZero: true, exponent });
  const quantity = int(form.quantity, 0, 1_000_000);
  const sort = int(form.sort, 0, 10_000);
  const problems = { titleEn: !form.titleEn.trim(), titleTy: !form.titleTy.trim(), points: points === null, amount: amount === null, quantity: quantity === null, sort: sort === null };
  const isValid = !Object.values(problems).some(Boolean);
  const edit = (patch: Partial<Form>) => setForm((f) => ({ ...f, ...patch }));
  const load = (r: TOpsReward) => setForm({
    id: r.id, titleEn: r.title.EN, titleTy: r.title.TY, remarkEn: r.remark.EN, remarkTy: r.remark.TY, points: String(r.pointsRequired),
    amount: toPesosInput(r.amount, exponent), quantity: String(r.quantity), active: r.status === 'active', sort: String(r.sort),
  });
  return (
    <div className="ops-split">
      <form className="ops-panel ops-form" noValidate onSubmit={(e) => {
        e.preventDefault();
        setTried(true);
        if (!isValid || !canManage) return;
        save.mutate({ id: form.id, body: {
          title: { EN: form.titleEn.trim(), TY: form.titleTy.trim() }, remark: { EN: form.remarkEn.trim(), TY: form.remarkTy.trim() },
          pointsRequired: points!, amount: amount!, quantity: quantity!, status: form.active ? 'active' : 'inactive', sort: sort!,
        } }, { onSuccess: () => { setForm(empty); setTried(false); } });
      }}>
        <h2 className="ops-panel__title">{form.id ? t('pts_edit', { id: form.id }) : t('pts_new')}</h2>
        {!canManage && <p className="ops-note ops-note--info">{t('pts_manage_roles')}</p>}
        <OpsField label={t('pts_title_en')} value={form.titleEn} onChange={(v) => edit({ titleEn: v })} testId="ops-points-title-en" required disabled={!canManage} maxLength={100} invalid={isTried && problems.titleEn} />
        <OpsField label={t('pts_title_ty')} value={form.titleTy} onChange={(v) => edit({ titleTy: v })} testId="ops-points-title-ty" required disabled={!canManage} maxLength={100} invalid={isTried && problems.titleTy} />
        <OpsField label={t('pts_remark_en')} value={form.remarkEn} onChange={(v) => edit({ remarkEn: v })} testId="ops-points-remark-en" disabled={!canManage} maxLength={500} multiline />
        <OpsField label={t('pts_remark_ty')} value={form.remarkTy} onChange={(v) => edit({ remarkTy: v })} testId="ops-points-remark-ty" disabled={!canManage} maxLength={500} multiline />
        <OpsField label={t('pts_points_required')} value={form.points} onChange={(v) => edit({ points: v })} testId="ops-points-required" required disabled={!canManage} inputMode="numeric" invalid={isTried && problems.points} problem={t('field_whole', { min: 1, max: '1000000000' })} />
        <OpsField label={t('pts_amount')} value={form.amount} onChange={(v) => edit({ amount: v })} testId="ops-points-amount" required disabled={!canManage} inputMode="decimal" invalid={isTried && problems.amount} hint={t('pts_amount_hint', { zero: toPesosInput(0, exponent) })} problem={t('field_amount_or_zero')} />
        <OpsField label={t('pts_quantity')} value={form.quantity} onChange={(v) => edit({ quantity: v })} testId="ops-points-quantity" required disabled={!canManage} inputMode="numeric" invalid={isTried && problems.quantity} problem={t('field_whole', { min: 0, max: '1000000' })} />
        <OpsField label={t('pts_sort')} value={form.sort} onChange={(v) => edit({ sort: v })} testId="ops-points-sort" disabled={!canManage} inputMode="numeric" invalid={isTried && problems.sort} problem={t('field_whole', { min: 0, max: '10000' })} />
        <label className="ops-check">
          <input type="checkbox" checked={form.active} disabled={!canManage} onChange={(e) => edit({ active: e.target.checked })} data-testid="ops-points-active" /> {t('pts_active')}
        </label>
        <ErrorNote error={save.error} testId="ops-points-save-error" />
        <div className="ops-form__actions">
          <button type="submit" className="ops-btn ops-btn--primary" disabled={!canManage || save.isPending} data-testid="ops-points-save">{t('pts_save')}</button>
          {form.id && <button type="button" className="ops-btn" onClick={() => { setForm(empty); setTried(false); }}>{t('pts_cancel_edit')}</button>}
        </div>
      </form>
      <div className="ops-panel">
        <h2 className="ops-panel__title">{t('pts_rewards')}</h2>
        <ErrorNote error={list.error} testId="ops-points-rewards-error" />
        <TableBox busy={list.isFetching}>
          <thead><tr><th>#</th><th>{t('pts_col_reward')}</th><th className="num">{t('pts_col_points')}</th><th className="num">{t('pts_col_cash')}</th><th className="num">{t('pts_quantity')}</th><th>{t('col_status')}</th><th /></tr></thead>
          <tbody>
            {(list.data?.list ?? []).map((r) => (
              <tr key={r.id} data-testid={`ops-points-reward-${r.id}`}>
                <td className="mono">{r.id}</td>
                <td>{r.title.EN}<div className="ops-muted">{r.title.TY}</div></td>
                <td className="num">{r.pointsRequired.toLocaleString()}</td>
                <td className="num">{r.amount > 0 ? formatAmount(r.amount) : t('pts_item')}</td>
                <td className="num">{r.quantity}{r.processing > 0 && <div className="ops-muted">{t('pts_processing_count', { count: r.processing })}</div>}</td>
                <td><StatusChip tone={r.status === 'active' ? 'success' : 'muted'}>{t(`pts_reward_${r.status}`)}</StatusChip></td>
                <td>{canManage && <button type="button" className="ops-btn" onClick={() => load(r)} data-testid={`ops-points-edit-${r.id}`}>{t('pts_edit_button')}</button>}</td>
              </tr>
            ))}
            {list.data && !list.data.list.length && <EmptyRow cols={7}>{t('pts_no_rewards')}</EmptyRow>}
          </tbody>
        </TableBox>
      </div>
    </div>
  );
}

function Config() {
  const { exponent } = useCurrency();
  const { t } = useTranslation('ops');
  const canManage = useOpsCan('points.manage');
  const cfg = useOpsPointConfig();
  const save = useSavePointConfig();
  const [draft, setDraft] = useState<{ bet: string; rate: string; min: string; enabled: boolean } | null>(null);
  const d = draft ?? (cfg.data ? { bet: toPesosInput(cfg.data.betPerPoint, exponent), rate: toPesosInput(cfg.data.minorPerPoint, exponent), min: String(cfg.data.minConvert), enabled: cfg.data.enabled } : null);
  if (!d) return <ErrorNote error={cfg.error} testId="ops-points-config-error" />;
  const bet = parsePesos(d.bet, { exponent });
  const rate = parsePesos(d.rate, { exponent });
  const min = int(d.min, 1, 100_000_000);
  const isValid = bet !== null && bet > 0 && rate !== null && rate > 0 && min !== null;
  const edit = (patch: Partial<typeof d>) => setDraft({ ...d, ...patch });
  return (
    <form className="ops-panel ops-form" noValidate onSubmit={(e) => {
      e.preventDefault();
      if (!isValid || !canManage) return;
      save.mutate({ betPerPoint: bet, minorPerPoint: rate, minConvert: min, enabled: d.enabled }, { onSuccess: () => setDraft(null) });
    }}>
      <h2 className="ops-panel__title">{t('pts_config')}</h2>
      <OpsField label={t('pts_bet_per_point')} value={d.bet} onChange={(v) => edit({ bet: v })} testId="ops-points-bet" required disabled={!canManage} inputMode="decimal" invalid={bet === null || bet <= 0} hint={t('pts_bet_per_point_hint')} problem={t('field_amount')} />
      <OpsField label={t('pts_cash_per_point')} value={d.rate} onChange={(v) => edit({ rate: v })} testId="ops-points-rate" required disabled={!canManage} inputMode="decimal" invalid={rate === null || rate <= 0} problem={t('field_amount')} />
      <OpsField label={t('pts_min_convert')} value={d.min} onChange={(v) => edit({ min: v })} testId="ops-points-min" required disabled={!canManage} inputMode="numeric" invalid={min === null} problem={t('field_whole', { min: 1, max: '100000000' })} />
      <label className="ops-check">
        <input type="checkbox" checked={d.enabled} disabled={!canManage} onChange={(e) => edit({ enabled: e.target.checked })} data-testid="ops-points-enabled" /> {t('pts_enabled')}
      </label>
      <ErrorNote error={save.error} testId="ops-points-config-save-error" />
      {save.isSuccess && !draft && <p className="ops-note ops-note--success" data-testid="ops-points-config-saved">{t('pts_saved')}</p>}
      <div className="ops-form__actions">
        <button type="submit" className="ops-btn ops-btn--primary" disabled={!canManage || !isValid || save.isPending} data-testid="ops-points-config-save">{t('pts_save')}</button>
      </div>
    </form>
  );
}
