import { useState } from 'react';
import { useVendorName } from '../../../lib/vendor-names';
import { useTranslation } from 'react-i18next';
import type { TTeamBet } from '@portal/contracts/api/agent-reports';
import { GAME_TYPES } from '@portal/contracts/domain/constants';
import { errorMessage } from '../../../lib/field-message';
import { useDateTime, useMoney } from '../../../lib/use-money';
import { FormMessage } from '../../../ui/form-field';
import { Pager, pagesOf } from '../../../ui/pager';
import { useTeamBets } from '../api/get-team-bets';
import { ReportRangeFilter } from './report-range-filter';
import { useReportRange } from './report-range';

const PAGE_SIZE = 20;
const STATUS_TONE: Record<TTeamBet['status'], string> = { settled: 'ok', open: 'wait', rolled_back: 'bad' };

/** Team betting: bet records of the caller's team by range, account and game type. */
export function TeamBetsScreen() {
  // home: the game types' names (the lobby's tabs).
  const { t } = useTranslation(['agent-office', 'home']);
  const vendorName = useVendorName();
  const money = useMoney();
  const dateTime = useDateTime();
  const [page, setPage] = useState(1);
  const r = useReportRange(1, () => setPage(1));
  const [account, setAccount] = useState('');
  const [gameType, setGameType] = useState('');
  const [filter, setFilter] = useState<{ account?: string; gameType?: string }>({});
  const q = useTeamBets({ ...r.range, ...filter, pageNo: page, pageSize: PAGE_SIZE });
  const rows = q.data?.list ?? [];
  return (
    <div className="mc-stack" data-testid="ao-team-bets">
      <div className="mc-card">
        <h1 className="mc-title">{t('item.personalHistoryCopy')}</h1>
        <ReportRangeFilter
          {...r}
          apply={(range) => {
            setFilter({ ...(account.trim() ? { account: account.trim() } : {}), ...(gameType ? { gameType } : {}) });
            r.apply(range);
          }}
          testId="ao-bets"
        >
          <label className="form-field">
            <span className="form-field__label">{t('col.account')}</span>
            <input className="form-field__input" value={account} maxLength={64} onChange={(e) => setAccount(e.target.value)} data-testid="ao-bets-account" />
          </label>
          <label className="form-field">
            <span className="form-field__label">{t('bets.game_type')}</span>
            <select className="form-field__input" value={gameType} onChange={(e) => setGameType(e.target.value)} data-testid="ao-bets-game-type">
              <option value="">{t('bets.game_type_all')}</option>
              {GAME_TYPES.map((g) => <option key={g} value={g}>{t(`home:gameType.${g}`)}</option>)}
            </select>
          </label>
        </ReportRangeFilter>
        {q.error && <FormMessage message={errorMessage(q.error)} />}
        {q.data && (
          <p className="ao-totals" data-testid="ao-bets-totals">
            <span>{t('bets.total_stake')}: <strong>{money(q.data.totalStake)}</strong></span>
            <span>{t('bets.total_win')}: <strong>{money(q.data.totalWin)}</strong></span>
            <span>{t('bets.count', { count: q.data.total })}</span>
          </p>
        )}
        <div className="cx-table-wrap">
          <table className="cx-table" data-testid="ao-bet-list">
            <thead>
              <tr>
                <th>{t('col.time')}</th>
                <th>{t('col.account')}</th>
                <th>{t('bets.game')}</th>
                <th className="cx-num">{t('bets.stake')}</th>
                <th className="cx-num">{t('bets.win')}</th>
                <th>{t('col.status')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((b) => (
                <tr key={`${b.vendor}-${b.roundId}-${b.memberId}`}>
                  <td data-label={t('col.time')}>{dateTime(b.time)}</td>
                  <td data-label={t('col.account')}>{b.account}</td>
                  <td data-label={t('bets.game')}>{b.gameName ?? b.gameCode ?? vendorName(b.vendor, b.gameType)}{b.gameType && <span className="cx-muted"> · {t(`home:gameType.${b.gameType}`, { defaultValue: '' })}</span>}</td>
                  <td data-label={t('bets.stake')} className="cx-num">{money(b.stake)}</td>
                  <td data-label={t('bets.win')} className="cx-num">{money(b.win)}</td>
                  <td data-label={t('col.status')}><span className={`cx-pill cx-pill--${STATUS_TONE[b.status]}`}>{t(`bets.status_${b.status}`)}</span></td>
                </tr>
              ))}
            </tbody>
          </table>
          {q.data && rows.length === 0 && <p className="cx-empty">{t('empty')}</p>}
        </div>
        <Pager page={page} pages={pagesOf(q.data)} onPage={setPage} prefix="ao-bets" />
      </div>
    </div>
  );
}
