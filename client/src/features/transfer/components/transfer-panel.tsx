import { useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage, MSG, type FieldErrors, type FieldMessage } from '../../../lib/field-message';
import { newRequestId, parseAmountMinor } from '../../../lib/money-input';
import { useAmountInvalid, useCurrency, useDateTime, useMoney, amountToneClass } from '../../../lib/use-money';
import { FormField, FormMessage } from '../../../ui/form-field';
import { Pager, pagesOf } from '../../../ui/pager';
import { useTransfers } from '../api/get-transfers';
import { useSendTransfer } from '../api/send-transfer';
import '../../../ui/cashier.css';

type Direction = 'upline' | 'downline';

/**
 * Member centre `transferUpline`: send to the direct upline, and for agents to a downline by
 * account (relay GCS_walletTransfer), with the withdraw password; the records below.
 */
export function TransferPanel({ isAgent, initialDownline, hasUpline, onSent }: {
  isAgent: boolean;
  /** Preselects a transfer to this downline (agent centre). */
  initialDownline?: string;
  /** false: the member has no upline (a top agent, a player of the merchant's own): no "to my upline" (the server refuses it, NO_UPLINE). */
  hasUpline?: boolean;
  /** After a transfer went through (the agent centre reads its downline list again). */
  onSent?: () => void;
}) {
  const { t } = useTranslation('wallet');
  const money = useMoney();
  const { exponent } = useCurrency();
  const amountInvalid = useAmountInvalid();
  const send = useSendTransfer();
  const toUpline = hasUpline !== false;
  const [chosen, setDirection] = useState<Direction>(isAgent && initialDownline ? 'downline' : 'upline');
  // An agent without an upline only sends down (also when its profile answers after the panel opened).
  const direction: Direction = isAgent && !toUpline ? 'downline' : chosen;
  const [toAccount, setToAccount] = useState(initialDownline ?? '');
  const [amountText, setAmountText] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<FieldMessage | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const requestId = useRef<string | null>(null);
  const changed = () => {
    requestId.current = null;
    setFormError(null);
    setSent(null);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (send.isPending) return;
    const next: FieldErrors = {};
    const amount = parseAmountMinor(amountText, exponent);
    if (amount === null || amount <= 0) next.amount = amountInvalid;
    if (direction === 'downline' && !toAccount.trim()) next.toAccount = MSG.empty;
    if (!password) next.password = MSG.empty;
    setErrors(next);
    if (Object.keys(next).length > 0 || amount === null) return;
    requestId.current ??= newRequestId();
    send.mutate(
      { direction, amount, withdrawPassword: password, requestId: requestId.current, ...(direction === 'downline' ? { toAccount: toAccount.trim() } : {}) },
      {
        onSuccess: (r) => {
          requestId.current = null;
          setSent(t('transfer_done', { amount: money(Math.abs(r.amount)), account: r.toAccount }));
          setAmountText('');
          setPassword('');
          onSent?.();
        },
        onError: (err) => setFormError(errorMessage(err)),
      },
    );
  };

  return (
    <div className="mc-stack" data-testid="transfer-panel">
      <div className="mc-card">
        <h1 className="mc-title">{isAgent ? t('transfer_title_agent') : t('transfer_title')}</h1>
        {!isAgent && !toUpline ? (
          <p className="cx-empty" data-testid="transfer-no-upline">{t('common:error_NO_UPLINE')}</p>
        ) : (
        <form className="cx-form" onSubmit={submit} noValidate>
          {isAgent && toUpline && (
            <div className="form-tabs" role="tablist">
              {(['upline', 'downline'] as const).map((d) => (
                <button key={d} type="button" role="tab" aria-selected={direction === d} className={direction === d ? 'is-active' : undefined} onClick={() => { setDirection(d); changed(); }} data-testid={`transfer-direction-${d}`}>
                  {t(`transfer_to_${d}`)}
                </button>
              ))}
            </div>
          )}
          <p className="cx-muted">{direction === 'upline' ? t('transfer_upline_hint') : t('transfer_downline_hint')}</p>
          {direction === 'downline' && (
            <div data-testid="transfer-account-field">
              <FormField name="toAccount" label={t('transfer_account')} value={toAccount} onChange={(x) => { setToAccount(x); changed(); }} error={errors.toAccount} required maxLength={64} autoComplete="off" />
            </div>
          )}
          <div data-testid="transfer-amount-field">
            <FormField name="amount" label={t('amount')} value={amountText} onChange={(x) => { setAmountText(x); changed(); }} inputMode="decimal" error={errors.amount} required />
          </div>
          <div data-testid="transfer-password-field">
            <FormField name="withdrawPassword" label={t('withdraw_password')} type="password" value={password} onChange={setPassword} error={errors.password} required autoComplete="off" />
          </div>
          <FormMessage message={formError} />
          {sent && <p className="form-message form-message--success" role="status" data-testid="transfer-done">{sent}</p>}
          <button type="submit" className="btn btn--primary" disabled={send.isPending} data-testid="transfer-submit">
            {send.isPending ? t('submitting') : t('transfer_submit')}
          </button>
        </form>
        )}
      </div>
      <TransferList />
    </div>
  );
}

export function TransferList() {
  const formatDateTime = useDateTime();
  const { t } = useTranslation('wallet');
  const money = useMoney();
  const [page, setPage] = useState(1);
  const q = useTransfers(page);
  const rows = q.data?.list ?? [];
  return (
    <div className="mc-card">
      <h2 className="mc-subtitle">{t('transfer_list')}</h2>
      {q.error && <FormMessage message={errorMessage(q.error)} />}
      <div className="cx-table-wrap">
        <table className="cx-table" data-testid="transfer-list">
          <thead>
            <tr>
              <th>{t('col_time')}</th>
              <th>{t('col_direction')}</th>
              <th>{t('col_from')}</th>
              <th>{t('col_to')}</th>
              <th className="cx-num">{t('amount')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id} data-testid={`transfer-row-${r.id}`}>
                <td data-label={t('col_time')}>{formatDateTime(r.createdAt)}</td>
                <td data-label={t('col_direction')}>{t(`transfer_to_${r.direction}`)}</td>
                <td data-label={t('col_from')}>{r.fromAccount}</td>
                <td data-label={t('col_to')}>{r.toAccount}</td>
                <td data-label={t('amount')} className={`cx-num cx-amount ${amountToneClass(r.amount)}`}>{money(r.amount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {q.data && rows.length === 0 && <p className="cx-empty">{t('empty')}</p>}
      </div>
      <Pager page={page} pages={pagesOf(q.data)} onPage={setPage} prefix="transfer" />
    </div>
  );
}
