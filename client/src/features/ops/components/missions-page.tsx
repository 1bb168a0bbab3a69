import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TOpsMission } from '@portal/contracts/api/missions';
import { isMoneyKind, maxLoginDays, MISSION_KINDS, MISSION_PERIODS, type TMissionKind, type TMissionPeriod } from '@portal/contracts/domain/missions';
import { useOpsMissions, useSaveMission, type MissionBody } from '../api/missions';
import { missionMoneyForm, missionMoneyOf, type MissionMoney, type MissionMoneyForm } from '../lib/mission-money';
import { toMajorInput } from '@portal/contracts/domain/money';
import { decimalsContext, useCurrency, useMoneyExample } from '../../../lib/use-money';
import { useOpsCan } from './ops-gate';
import { useGameTypeName } from '../lib/format';
import { GAME_TYPES, type GameType } from '@portal/contracts/domain/constants';
import { ListEmptyRow, ErrorNote, Money, OpsField, PageHead, StatusChip, SuccessNote, TableBox } from './ops-ui';

const int = (v: string) => (/^\d{1,13}$/.test(v.trim()) ? Number(v.trim()) : Number.NaN);
// Target and reward as typed: major units for the reward and a money target, a count otherwise (lib/mission-money).
type Form = MissionMoneyForm & { period: TMissionPeriod; kind: TMissionKind; gameType: string; titleEn: string; titleTy: string; sort: string; enabled: boolean };
const formOf = (m: TOpsMission | null, exponent: number): Form => ({
  period: m?.period ?? 'daily', kind: m?.kind ?? 'valid_bet', gameType: m?.gameType ?? 'RNG', titleEn: m?.title.EN ?? '', titleTy: m?.title.TY ?? '',
  ...missionMoneyForm(m, exponent), sort: String(m?.sort ?? 0), enabled: m?.enabled ?? true,
});
const bodyOf = (f: Form, money: MissionMoney): MissionBody => ({
  period: f.period, kind: f.kind, gameType: f.kind === 'game_bet' ? (f.gameType as GameType) : null,
  title: { EN: f.titleEn, TY: f.titleTy }, ...money, sort: int(f.sort), enabled: f.enabled,
});
/** A stored mission as it is (centavos untouched), to switch it on or off. */
const bodyOfMission = (m: TOpsMission, enabled: boolean): MissionBody => ({
  period: m.period, kind: m.kind, gameType: m.gameType as GameType | null, title: m.title, target: m.target, rewardAmount: m.rewardAmount, sort: m.sort, enabled,
});

/**
 * /ops/missions: the merchant's daily and weekly missions (kind, target, cash reward, EN/TY title);
 * create, edit, disable. Content and administrators edit, finance reads. The server validates and audits.
 */
export function MissionsOpsPage() {
  const { t } = useTranslation('missions');
  const gameTypeName = useGameTypeName();
  const { t: to } = useTranslation('ops');
  const canEdit = useOpsCan('missions.manage');
  const list = useOpsMissions();
  const save = useSaveMission();
  const [editing, setEditing] = useState<TOpsMission | null | 'new'>(null);
  const toggle = (m: TOpsMission) => save.mutate({ id: m.id, body: bodyOfMission(m, !m.enabled) });
  return (
    <section className="ops-page" data-testid="ops-missions-page">
      <PageHead title={to('nav_missions')}>
        {canEdit && <button type="button" className="ops-btn ops-btn--primary" onClick={() => setEditing('new')} data-testid="ops-mission-new">{t('ops_new')}</button>}
      </PageHead>
      {!canEdit && <p className="ops-note ops-note--info">{t('ops_read_only')}</p>}
      {editing !== null && <MissionForm key={editing === 'new' ? 'new' : editing.id} current={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />}
      <div className="ops-panel">
        <ErrorNote error={list.error ?? save.error} testId="ops-mission-error" />
        <TableBox busy={list.isFetching}>
          <thead>
            <tr><th>#</th><th>{t('ops_title_en')}</th><th>{t('ops_period')}</th><th>{t('ops_kind')}</th><th>{t('ops_col_target')}</th><th>{t('ops_col_reward')}</th><th>{t('ops_claims')}</th><th>{t('ops_state')}</th><th /></tr>
          </thead>
          <tbody>
            {(list.data?.list.length ?? 0) === 0 && <ListEmptyRow list={list} cols={9} empty={t('ops_empty')} />}
            {list.data?.list.map((m) => (
              <tr key={m.id} data-testid={`ops-mission-${m.id}`}>
                <td className="mono">{m.id}</td>
                <td className="strong">{m.title.EN}<br /><span className="ops-muted">{m.title.TY}</span></td>
                <td>{t(`ops_period_${m.period}`)}</td>
                <td>{t(`kind_${m.kind}`, { gameType: m.gameType ? gameTypeName(m.gameType) : '' })}</td>
                <td>{isMoneyKind(m.kind) ? <Money minor={m.target} /> : m.target}</td>
                <td><Money minor={m.rewardAmount} /></td>
                <td>{m.claims}</td>
                <td>{m.enabled ? <StatusChip tone="success">{t('ops_on')}</StatusChip> : <StatusChip tone="muted">{t('ops_off')}</StatusChip>}</td>
                <td>
                  {canEdit && (
                    <span className="ops-form__actions">
                      <button type="button" className="ops-btn" onClick={() => setEditing(m)} data-testid="ops-mission-edit">{t('ops_edit')}</button>
                      <button type="button" className="ops-btn" disabled={save.isPending} onClick={() => toggle(m)} data-testid="ops-mission-toggle">{m.enabled ? t('ops_disable') : t('ops_enable')}</button>
                    </span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </TableBox>
      </div>
    </section>
  );
}

function MissionForm({ current, onDone }: { current: TOpsMission | null; onDone: () => void }) {
  const { t } = useTranslation('missions');
  const gameTypeName = useGameTypeName();
  const save = useSaveMission();
  const { exponent, code: currency } = useCurrency();
  const example = useMoneyExample();
  const badMoney = t('ops_bad_money', { currency, a: example(50_00, { whole: true }), b: example(88_50, { whole: true }), context: decimalsContext(exponent) });
  const [f, setF] = useState<Form>(() => formOf(current, exponent));
  const [bad, setBad] = useState<ReadonlyArray<keyof MissionMoneyForm | 'sort' | 'titleEn' | 'titleTy'>>([]);
  const set = (k: keyof Form) => (v: string) => setF((x) => ({ ...x, [k]: v }));
  const submit = () => {
    const money = missionMoneyOf(f.kind, f, exponent);
    const tooManyDays = f.kind === 'login_days' && money.ok && money.value.target > maxLoginDays(f.period);
    // The titles too (the server's "title.EN: Too small" showed in English in TY).
    const noTitle = (['titleEn', 'titleTy'] as const).filter((k) => !f[k].trim());
    const wrong = [...(money.ok ? [] : money.bad), ...(tooManyDays ? (['target'] as const) : []), ...(Number.isNaN(int(f.sort)) ? (['sort'] as const) : []), ...noTitle];
    setBad(wrong);
    if (!money.ok || wrong.length > 0) return;
    save.mutate({ id: current?.id ?? null, body: bodyOf(f, money.value) }, { onSuccess: onDone });
  };
  const moneyTarget = isMoneyKind(f.kind);
  const fixed = current !== null;
  return (
    <div className="ops-panel ops-form" data-testid="ops-mission-form">
      <h2 className="ops-panel__title">{current ? `${t('ops_edit')} #${current.id}` : t('ops_new')}</h2>
      <div className="ops-field">
        <label className="ops-field__label" htmlFor="mission-period">{t('ops_period')}</label>
        <select id="mission-period" className="ops-input" value={f.period} disabled={fixed} onChange={(e) => setF((x) => ({ ...x, period: e.target.value as TMissionPeriod }))} data-testid="ops-mission-period">
          {MISSION_PERIODS.map((p) => <option key={p} value={p}>{t(`ops_period_${p}`)}</option>)}
        </select>
      </div>
      <div className="ops-field">
        <label className="ops-field__label" htmlFor="mission-kind">{t('ops_kind')}</label>
        <select id="mission-kind" className="ops-input" value={f.kind} disabled={fixed} onChange={(e) => setF((x) => ({ ...x, kind: e.target.value as TMissionKind }))} data-testid="ops-mission-kind">
          {MISSION_KINDS.map((k) => <option key={k} value={k}>{t(`kind_${k}`, { gameType: '…' })}</option>)}
        </select>
      </div>
      {f.kind === 'game_bet' && (
        <div className="ops-field">
          <label className="ops-field__label" htmlFor="mission-game-type">{t('ops_game_type')}</label>
          <select id="mission-game-type" className="ops-input" value={f.gameType} disabled={fixed} onChange={(e) => setF((x) => ({ ...x, gameType: e.target.value }))} data-testid="ops-mission-game-type">
            {/* A game type the catalogue does not have would make a mission no bet counts towards. */}
            {!GAME_TYPES.includes(f.gameType as never) && <option value={f.gameType} disabled>{f.gameType ? gameTypeName(f.gameType) : '—'}</option>}
            {GAME_TYPES.map((g) => <option key={g} value={g}>{gameTypeName(g)}</option>)}
          </select>
        </div>
      )}
      <OpsField label={t('ops_title_en')} value={f.titleEn} onChange={set('titleEn')} testId="ops-mission-title-en" required maxLength={120} invalid={bad.includes('titleEn')} problem={t('ops_required')} />
      <OpsField label={t('ops_title_ty')} value={f.titleTy} onChange={set('titleTy')} testId="ops-mission-title-ty" required maxLength={120} invalid={bad.includes('titleTy')} problem={t('ops_required')} />
      <OpsField label={(moneyTarget ? t('ops_target_money', { currency, example: example(500_00) }) : t('ops_target_count'))} value={f.target} onChange={set('target')} testId="ops-mission-target"
        inputMode={moneyTarget ? 'decimal' : 'numeric'} placeholder={moneyTarget ? toMajorInput(0, exponent) : '0'} required invalid={bad.includes('target')}
        hint={bad.includes('target') ? (moneyTarget ? badMoney : f.kind === 'login_days' ? t('ops_bad_login_days', { count: maxLoginDays(f.period) }) : t('ops_bad_count')) : undefined} />
      <OpsField label={t('ops_reward', { currency, example: example(50_00) })} value={f.reward} onChange={set('reward')} testId="ops-mission-reward" inputMode="decimal" placeholder={toMajorInput(0, exponent)} required
        invalid={bad.includes('reward')} hint={bad.includes('reward') ? badMoney : undefined} />
      <OpsField label={t('ops_sort')} value={f.sort} onChange={set('sort')} testId="ops-mission-sort" inputMode="numeric" invalid={bad.includes('sort')}
        hint={bad.includes('sort') ? t('ops_bad_sort') : undefined} />
      <label className="ops-check"><input type="checkbox" checked={f.enabled} onChange={(e) => setF((x) => ({ ...x, enabled: e.target.checked }))} data-testid="ops-mission-enabled" /> {t('ops_enabled')}</label>
      {bad.length > 0 && <p className="ops-note ops-note--error" role="alert" data-testid="ops-mission-invalid">{t('ops_invalid')}</p>}
      <ErrorNote error={save.error} testId="ops-mission-save-error" />
      {save.isSuccess && <SuccessNote>{t('ops_saved')}</SuccessNote>}
      <div className="ops-form__actions">
        <button type="button" className="ops-btn ops-btn--primary" disabled={save.isPending} onClick={submit} data-testid="ops-mission-save">{t('ops_save')}</button>
        <button type="button" className="ops-btn" onClick={onDone}>{t('ops_cancel')}</button>
      </div>
    </div>
  );
}
