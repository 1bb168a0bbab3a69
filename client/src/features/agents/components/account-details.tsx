import { useState } from 'react';
import { recordKindName } from '../../../lib/code-labels';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/field-message';
import { useDateTime, useMoney, amountToneClass } from '../../../lib/use-money';
import { FormMessage } from '../../../ui/form-field';
import { Pager, pagesOf } from '../../../ui/pager';
import { useMemTrans } from '../api/get-mem-trans';
import { ReportRangeFilter } from './report-range-filter';
import { useReportRange } from './report-range';

const PAGE_SIZE = 20;
/**
 * Record kinds offered in the filter (the account record's kinds: a contract payout is 'dividend', not the
 * ledger's 'agent.dividend'; the server accepts any lower-case kind).
 */
export const MEM_TRANS_TYPES = [
  'deposit', 'withdrawal', 'transfer_upline', 'transfer_downline', 'adjustment', 'bet', 'win', 'rollback',
  'dividend', 'daily_salary', 'hourly_salary', 'realtime_salary', 'agent_adjustment',
  'promo_reward', 'bonus_convert', 'bonus_revert', 'mission_reward', 'envelope_grab', 'points_convert', 'points_redeem',
] as const;

/** Account details (relay ODSFE2_MemTransDet): ledger entries of the team by range, account and kind. */
export function AccountDetailsScreen() {
  const { t } = useTranslation('agent-office');
  const money = useMoney();
  const dateTime = useDateTime();
  const [page, setPage] = useState(1);
  const r = useReportRange(1, () => setPage(1));
  const [account, setAccount] = useState('');
  const [type, setType] = useState('');
  const [filter, setFilter] = useState<{ account?: string; type?: string }>({});
  const q = useMemTrans({ ...r.range, ...filter, pageNo: page, pageSize: PAGE_SIZE });
  const rows = q.data?.list ?? [];
  return (
    <div className="mc-stack" data-testid="ao-account-details">
      <div className="mc-card">
        <h1 className="mc-title">{t('item.agentDownlineTransactionDetailsCopy')}</h1>
        <ReportRangeFilter
          {...r}
          apply={(range) => {
            setFilter({ ...(account.trim() ? { account: account.trim() } : {}), ...(type ? { type } : {}) });
            r.apply(range);
          }}
          testId="ao-trans"
        >
          <label className="form-field">
            <span className="form-field__label">{t('col.account')}</span>
            <input className="form-field__input" value={account} maxLength={64} onChange={(e) => setAccount(e.target.value)} data-testid="ao-trans-account" />
          </label>
          <label className="form-field">
            <span className="form-field__label">{t('trans.type')}</span>
            <select className="form-field__input" value={type} onChange={(e) => setType(e.target.value)} data-testid="ao-trans-type">
              <option value="">{t('trans.all')}</option>
              {MEM_TRANS_TYPES.map((k) => (
                <option key={k} value={k}>{t(`trans.kind_${k}`, { defaultValue: recordKindName(t, k) })}</option>
              ))}
            </select>
          </label>
        </ReportRangeFilter>
        {q.error && <FormMessage message={errorMessage(q.error)} />}
        <div className="cx-table-wrap">
          <table className="cx-table" data-testid="ao-trans-list">
            <thead>
              <tr>
                <th>{t('col.time')}</th>
                <th>{t('col.account')}</th>
                <th>{t('trans.type')}</th>
                <th>{t('trans.reference')}</th>
                <th className="cx-num">{t('trans.amount')}</th>
                <th className="cx-num">{t('trans.balance_after')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((e) => (
                <tr key={e.id}>
                  <td data-label={t('col.time')}>{dateTime(e.time)}</td>
                  <td data-label={t('col.account')}>{e.account}</td>
                  <td data-label={t('trans.type')}>{t(`trans.kind_${e.type}`, { defaultValue: recordKindName(t, e.type) })}</td>
                  <td data-label={t('trans.reference')}>{e.reference}</td>
                  <td data-label={t('trans.amount')} className={`cx-num cx-amount ${amountToneClass(e.amount)}`}>{money(e.amount)}</td>
                  <td data-label={t('trans.balance_after')} className="cx-num">{e.balanceAfter === null ? '—' : money(e.balanceAfter)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {q.data && rows.length === 0 && <p className="cx-empty">{t('empty')}</p>}
        </div>
        <Pager page={page} pages={pagesOf(q.data)} onPage={setPage} prefix="ao-trans" />
      </div>
    </div>
  );
}
