import { useTranslation } from 'react-i18next';
import { currencyExponent, formatMinor } from '@portal/contracts/domain/money';
import { useBalance } from '../api/get-balance';
import { setBalanceHidden, useBalanceHidden } from '../lib/balance-visibility';
import './wallet.css';

const MASK = '******';

/**
 * Header balance (spec section 2): show/hide (asterisks when hidden, remembered), click to refresh;
 * `balance.changed` keeps it live through the query cache. Not rendered for guests and trial users.
 */
export function HeaderBalance() {
  const { t } = useTranslation('wallet');
  const q = useBalance();
  const isHidden = useBalanceHidden();
  // What the player can use now: a pending withdrawal's hold is already out of reach.
  const amount = q.data ? formatMinor(q.data.available, q.data.currencySymbol, currencyExponent(q.data.currency)) : q.isError ? '--' : '…';
  return (
    <div className="header-balance" data-testid="header-balance-box">
      <button
        type="button"
        className="header-balance__amount"
        onClick={() => void q.refetch()}
        disabled={q.isFetching}
        aria-label={t('balance_refresh')}
        title={t('balance_refresh')}
        data-testid="balance-refresh"
      >
        <span className="header-balance__label">{t('balance')}</span>
        <span className="header-balance__value" data-testid="header-balance" aria-live="polite">
          {isHidden ? MASK : amount}
        </span>
        <svg className={`header-balance__spin${q.isFetching ? ' is-spinning' : ''}`} viewBox="0 0 24 24" width="14" height="14" aria-hidden="true">
          <path d="M20 12a8 8 0 1 1-2.34-5.66M20 4v4h-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
      <button
        type="button"
        className="header-balance__eye"
        onClick={() => setBalanceHidden(!isHidden)}
        aria-pressed={isHidden}
        aria-label={isHidden ? t('balance_show') : t('balance_hide')}
        title={isHidden ? t('balance_show') : t('balance_hide')}
        data-testid="balance-toggle"
      >
        <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
          <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z" fill="none" stroke="currentColor" strokeWidth="1.8" />
          <circle cx="12" cy="12" r="3" fill="none" stroke="currentColor" strokeWidth="1.8" />
          {isHidden && <path d="M4 20L20 4" stroke="currentColor" strokeWidth="1.8" />}
        </svg>
      </button>
    </div>
  );
}
