import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TMission } from '@portal/contracts/api/missions';
import { isMoneyKind, MISSION_PERIODS, type TMissionPeriod } from '@portal/contracts/domain/missions';
import { errorMessage } from '../../../lib/field-message';
import { useDateTime, useMoney } from '../../../lib/use-money';
import { FormMessage } from '../../../ui/form-field';
import { useClaimMission } from '../api/claim-mission';
import { useSingleFlight } from '../../../lib/single-flight';
import { useLeaderboard } from '../api/get-leaderboard';
import { useMissionSummary } from '../api/get-mission-summary';
import './missions.css';

type Tab = 'missions' | 'leaderboard';

/**
 * Member centre `missionLeaderboard`: the day's and week's missions (progress bars, claim) and the
 * leaderboard. Live: the member centre keeps useMissionEvents mounted (it also moves the badge).
 */
export function MissionsPanel() {
  const { t } = useTranslation('missions');
  const [tab, setTab] = useState<Tab>('missions');
  return (
    <div className="mc-card" data-testid="missions-panel">
      <h1 className="mc-title">{t('title')}</h1>
      <div className="msn-tabs" role="tablist">
        {(['missions', 'leaderboard'] as const).map((id) => (
          <button key={id} type="button" role="tab" className="msn-tab" aria-selected={tab === id} onClick={() => setTab(id)} data-testid={`missions-tab-${id}`}>
            {t(`tab_${id}`)}
          </button>
        ))}
      </div>
      {tab === 'missions' ? <MissionList /> : <Leaderboard />}
    </div>
  );
}

/** A claim is of one mission in one period. */
export const claimKey = (b: { missionId: number; periodKey: string }) => `${b.missionId}:${b.periodKey}`;

function MissionList() {
  const { t } = useTranslation('missions');
  const summary = useMissionSummary();
  const claim = useClaimMission();
  // One claim of a mission's period in flight: a double click claimed twice, paid once, and the second's
  // CONFLICT ("This was already done") showed at the top of the panel.
  const flight = useSingleFlight();
  const claimError = flight.error(claim.error, claim.variables ? claimKey(claim.variables) : null);
  const list = summary.data?.list ?? [];
  return (
    <div className="msn-list">
      {(summary.error ?? claimError) && <FormMessage message={errorMessage(summary.error ?? claimError)} />}
      {summary.data && !summary.data.eligible && <p className="form-notice" data-testid="missions-ineligible">{t('ineligible')}</p>}
      {summary.data && list.length === 0 && <p className="msn-empty">{t('empty')}</p>}
      {MISSION_PERIODS.map((period) => {
        const of = list.filter((m) => m.period === period);
        if (!of.length) return null;
        return (
          <section key={period} className="msn-group" aria-label={t(`period_${period}`)}>
            <h2 className="msn-group__title">{t(`period_${period}`)}</h2>
            <div className="msn-grid">
              {/* Not eligible (an exclusion in force): the server refuses the claim (RG_EXCLUDED), so no button. */}
              {of.map((m) => <MissionCard key={m.id} m={m} canClaim={summary.data?.eligible !== false} busy={claim.isPending} onClaim={() => {
                const b = { missionId: Number(m.id), periodKey: m.periodKey };
                flight.run(claimKey(b), () => claim.mutateAsync(b));
              }} />)}
            </div>
          </section>
        );
      })}
    </div>
  );
}

export function MissionCard({ m, canClaim, busy, onClaim }: { m: TMission; canClaim: boolean; busy: boolean; onClaim: () => void }) {
  const { t } = useTranslation('missions');
  const money = useMoney();
  const dateTime = useDateTime();
  const show = (v: number) => (isMoneyKind(m.kind) ? money(v) : String(v));
  const pct = Math.min(100, Math.floor((m.progress * 100) / m.target));
  return (
    <article className={`msn-card msn-card--${m.status}`} data-testid={`mission-${m.id}`} data-mission-status={m.status}>
      <div className="msn-card__head">
        <h3 className="msn-card__title">{m.title}</h3>
        <span className={`msn-status msn-status--${m.status}`}>{t(`status_${m.status}`)}</span>
      </div>
      <p className="msn-card__meta">{t(`kind_${m.kind}`, { gameType: m.gameType ? t(`home:gameType.${m.gameType}`, { defaultValue: m.gameType }) : '' })}</p>
      <div className="msn-progress" role="progressbar" aria-valuemin={0} aria-valuemax={m.target} aria-valuenow={Math.min(m.progress, m.target)} aria-label={m.title}>
        <div className="msn-progress__bar" style={{ width: `${pct}%` }} />
      </div>
      <div className="msn-card__row">
        <span data-testid={`mission-progress-${m.id}`}>{`${show(Math.min(m.progress, m.target))} / ${show(m.target)}`}</span>
        <span className="msn-card__pct">{`${pct}%`}</span>
      </div>
      <p className="msn-card__reward">{t('reward', { amount: money(m.rewardAmount) })}</p>
      <div className="msn-card__row">
        <span className="msn-card__meta">{t('ends', { at: dateTime(m.endsAt) })}</span>
        {m.status === 'claim' && canClaim && (
          <button type="button" className="btn btn--primary btn--sm" disabled={busy} onClick={onClaim} data-testid={`mission-claim-${m.id}`}>{t('claim')}</button>
        )}
      </div>
    </article>
  );
}

function Leaderboard() {
  const { t } = useTranslation('missions');
  const money = useMoney();
  const [period, setPeriod] = useState<TMissionPeriod>('daily');
  const board = useLeaderboard(period);
  const data = board.data;
  return (
    <div className="msn-board" data-testid="leaderboard">
      <div className="msn-tabs">
        {MISSION_PERIODS.map((p) => (
          <button key={p} type="button" className="msn-tab msn-tab--small" aria-pressed={period === p} onClick={() => setPeriod(p)} data-testid={`leaderboard-${p}`}>
            {t(`board_${p}`)}
          </button>
        ))}
      </div>
      {board.error && <FormMessage message={errorMessage(board.error)} />}
      {data && (
        <p className="msn-board__me" data-testid="leaderboard-me">
          {data.me ? t('my_rank', { rank: data.me.beyondCap ? `${(data.me.rank - 1).toLocaleString('en-US')}+` : data.me.rank, total: money(data.me.total) }) : t('my_rank_none')}
        </p>
      )}
      {data && data.list.length === 0 && <p className="msn-empty">{t('board_empty')}</p>}
      {data && data.list.length > 0 && (
        <table className="msn-table">
          <thead>
            <tr><th>{t('col_rank')}</th><th>{t('col_player')}</th><th className="msn-num">{t('col_total')}</th></tr>
          </thead>
          <tbody>
            {data.list.map((r) => (
              <tr key={r.rank} className={r.isMe ? 'msn-table__me' : undefined} data-testid={`leaderboard-row-${r.rank}`}>
                <td><span className={`msn-rank msn-rank--${Math.min(r.rank, 4)}`}>{r.rank}</span></td>
                <td>{r.isMe ? t('you', { name: r.name }) : r.name}</td>
                <td className="msn-num">{money(r.total)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="msn-card__meta">{t('board_rule')}</p>
    </div>
  );
}
