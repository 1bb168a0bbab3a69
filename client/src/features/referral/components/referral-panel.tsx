import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@portal/contracts/domain/constants';
import { errorMessage } from '../../../lib/field-message';
import { useDateTime } from '../../../lib/use-money';
import { FormMessage } from '../../../ui/form-field';
import { Pager, pagesOf } from '../../../ui/pager';
import { QrCode } from '../../../ui/qr-code';
import { useReferral } from '../api/get-referral';
import '../../../ui/cashier.css';
import './referral.css';

/** Member centre `referral`: the invitation link with a copy button and QR code, and its results. */
export function ReferralPanel() {
  const { t } = useTranslation('pages');
  const formatDateTime = useDateTime();
  const [page, setPage] = useState(1);
  const [copied, setCopied] = useState(false);
  const q = useReferral(page);
  const v = q.data;
  const copy = async () => {
    if (!v) return;
    try {
      await navigator.clipboard.writeText(v.link);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <div className="mc-stack" data-testid="referral-panel">
      <div className="mc-card">
        <h1 className="mc-title">{t('referral_title')}</h1>
        <p className="cx-muted">{t('referral_intro')}</p>
        {q.error && <FormMessage message={errorMessage(q.error)} />}
        {v && (
          <div className="ref-link">
            <div className="ref-link__text">
              <label className="fb-label" htmlFor="referral-link">{t('referral_link')}</label>
              <div className="ref-link__row">
                <input id="referral-link" className="ref-link__input" readOnly value={v.link} data-testid="referral-link" onFocus={(e) => e.currentTarget.select()} />
                <button type="button" className="btn btn--primary btn--sm" onClick={copy} data-testid="referral-copy">
                  {copied ? t('referral_copied') : t('referral_copy')}
                </button>
              </div>
              <p className="cx-muted">{t('referral_code', { code: v.code })}</p>
              <dl className="ref-stats">
                <div><dt>{t('referral_registered')}</dt><dd data-testid="referral-registered">{v.registered}</dd></div>
                <div><dt>{t('referral_deposited')}</dt><dd data-testid="referral-deposited">{v.deposited}</dd></div>
              </dl>
            </div>
            <QrCode value={v.link} label={t('referral_qr')} size={LIMITS.QR_SIZE_SIDEBAR + 40} margin={8} />
          </div>
        )}
      </div>
      <div className="mc-card">
        <h2 className="mc-title">{t('referral_results')}</h2>
        {v && v.list.length === 0 ? (
          <p className="cx-empty">{t('referral_none')}</p>
        ) : (
          <div className="ref-table-box">
            <table className="ref-table" data-testid="referral-table">
              <thead>
                <tr><th>{t('referral_col_account')}</th><th>{t('referral_col_registered')}</th><th>{t('referral_col_deposit')}</th></tr>
              </thead>
              <tbody>
                {(v?.list ?? []).map((r, i) => (
                  <tr key={`${r.account}-${i}`}>
                    <td className="mono">{r.account}</td>
                    <td>{formatDateTime(r.registeredAt)}</td>
                    <td>{r.hasDeposited && r.firstDepositAt ? <span className="ref-yes">{t('referral_deposit_yes', { at: formatDateTime(r.firstDepositAt) })}</span> : <span className="cx-muted">{t('referral_deposit_no')}</span>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager page={page} pages={pagesOf(v)} onPage={setPage} prefix="referral" />
      </div>
    </div>
  );
}
