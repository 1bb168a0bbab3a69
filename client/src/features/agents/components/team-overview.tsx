import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/field-message';
import { useDateTime, useMoney } from '../../../lib/use-money';
import { useRealtimeEvent } from '../../../realtime/realtime-context';
import { FormMessage } from '../../../ui/form-field';
import { TEAM_OVERVIEW_REFRESH_MS, useTeamOverview } from '../api/get-team-overview';
import { ReportRangeFilter } from './report-range-filter';
import { useReportRange } from './report-range';

type Figure = { key: string; value: string; tone?: 'in' | 'out' };

/**
 * Team overview (default item): the team's figures over a range of merchant days. The figures are
 * read again every TEAM_OVERVIEW_REFRESH_MS and at once when a balance event reaches this session.
 */
export function TeamOverviewScreen() {
  const { t } = useTranslation('agent-office');
  const money = useMoney();
  const dateTime = useDateTime();
  const r = useReportRange(1);
  const q = useTeamOverview(r.range);
  const refetch = q.refetch;
  useRealtimeEvent('balance.changed', () => void refetch());
  useRealtimeEvent('system.resync', () => void refetch());
  const d = q.data;
  const figures: Figure[] = d
    ? [
        { key: 'teamSize', value: String(d.teamSize) },
        { key: 'directCount', value: String(d.directCount) },
        { key: 'agentCount', value: String(d.agentCount) },
        { key: 'newMembers', value: String(d.newMembers) },
        { key: 'activeMembers', value: String(d.activeMembers) },
        // Money in green and out in red only when there is some: a red ₱0.00 read as a loss.
        { key: 'deposits', value: money(d.deposits), ...(d.deposits !== 0 ? { tone: 'in' } : {}) },
        { key: 'withdrawals', value: money(d.withdrawals), ...(d.withdrawals !== 0 ? { tone: 'out' } : {}) },
        { key: 'validBets', value: money(d.validBets) },
        { key: 'betCount', value: String(d.betCount) },
        { key: 'payout', value: money(d.payout) },
        { key: 'profitLoss', value: money(d.profitLoss), ...(d.profitLoss !== 0 ? { tone: d.profitLoss < 0 ? 'out' : 'in' } : {}) },
      ]
    : [];
  return (
    <div className="mc-stack" data-testid="ao-team-overview">
      <div className="mc-card">
        <div className="cx-head">
          <h1 className="mc-title">{t('item.agentTeamOverview')}</h1>
          <button type="button" className="btn btn--ghost btn--sm" onClick={() => void refetch()} disabled={q.isFetching} data-testid="ao-overview-refresh">
            {q.isFetching ? t('refreshing') : t('refresh')}
          </button>
        </div>
        <ReportRangeFilter {...r} testId="ao-overview" />
        {q.error && <FormMessage message={errorMessage(q.error)} />}
        {!d && !q.error && <p className="form-notice">{t('loading')}</p>}
        {d && (
          <>
            <div className="ao-figures" data-testid="ao-overview-figures">
              {figures.map((f) => (
                <div key={f.key} className="ao-figure" data-figure={f.key}>
                  <span className="ao-figure__label">{t(`overview.${f.key}`)}</span>
                  <strong className={`ao-figure__value${f.tone ? ` cx-amount cx-amount--${f.tone}` : ''}`}>{f.value}</strong>
                </div>
              ))}
            </div>
            {/* Whose figures these are: User loss's totals add the agent's own line, so the two differed unexplained. */}
            <p className="cx-muted" data-testid="ao-overview-scope">{t('overview.scope')}</p>
            <p className="cx-muted" data-testid="ao-overview-asof">
              {t('overview.as_of', { from: d.from, to: d.to, time: dateTime(d.asOf), seconds: TEAM_OVERVIEW_REFRESH_MS / 1000 })}
            </p>
          </>
        )}
      </div>
    </div>
  );
}
