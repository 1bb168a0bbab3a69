import { useRef, useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { MAX_BANK_ACCOUNTS, type TWithdrawal, type WithdrawalStatus } from '@portal/contracts/api/cashier';
import { ErrorCode } from '@portal/contracts/api/errors';
import { ApiError } from '../../../lib/api';
import { errorMessage, MSG, type FieldErrors, type FieldMessage } from '../../../lib/field-message';
import { newRequestId, parseAmountMinor } from '../../../lib/money-input';
import { TRANSACTION_PASSWORD_HREF, useTransactionPasswordStatus } from '../../../lib/transaction-password';
import { useAmountInvalid, useCurrency, useDateTime, useMoney } from '../../../lib/use-money';
import { useRealtimeEvent } from '../../../realtime/realtime-context';
import { FormField, FormMessage } from '../../../ui/form-field';
import { Pager, pagesOf } from '../../../ui/pager';
import { DataTable, RefreshHead } from '../../../ui/data-table';
import { TransactionPasswordLink } from '../../../ui/transaction-password-link';
import { useAddBankAccount } from '../api/add-bank-account';
import { useCreateWithdrawal } from '../api/create-withdrawal';
import { useBankAccounts } from '../api/get-bank-accounts';
import { WITHDRAWAL_LIMITS_KEY, useWithdrawalLimits } from '../api/get-withdrawal-limits';
import { WITHDRAWALS_KEY, useWithdrawals } from '../api/get-withdrawals';
import { useRemoveBankAccount } from '../api/remove-bank-account';
import { useSetWithdrawPassword } from '../api/set-withdraw-password';
import { WithdrawalConfirmation } from './withdrawal-confirmation';
import '../../../ui/cashier.css';

export const WITHDRAWAL_TONE: Record<WithdrawalStatus, string> = {
  requested: 'wait', approved: 'wait', held: 'wait', paid: 'act', rejected: 'bad',
  received: 'ok', partially_received: 'ok', not_received: 'bad', auto_received: 'ok',
};

/**
 * Member centre `withdraw`: the withdraw (transaction) password when not set yet, bank accounts
 * (at most 3), the request within the limits, the paid withdrawals' confirmation prompts and the list.
 * `note`: what another feature has to say above the form (the member centre: bonus money not withdrawable).
 */
export function WithdrawPanel({ note }: { note?: ReactNode } = {}) {
  const { t } = useTranslation('wallet');
  const limits = useWithdrawalLimits();
  // Set or changed in the security centre too: its own status (kept current there) decides, the limits' copy until it loads.
  const txPassword = useTransactionPasswordStatus();
  const hasPassword = txPassword.data ? txPassword.data.isSet : limits.data?.hasWithdrawPassword;
  const qc = useQueryClient();
  const withdrawals = useWithdrawals(1, 20);
  useRealtimeEvent('withdrawal.updated', () => {
    void qc.invalidateQueries({ queryKey: WITHDRAWALS_KEY });
    void qc.invalidateQueries({ queryKey: WITHDRAWAL_LIMITS_KEY });
  });
  // Keep a prompt on screen after its confirmation (it shows the outcome) until the player leaves.
  const [prompted, setPrompted] = useState<ReadonlySet<string>>(new Set());
  const rows = withdrawals.data?.list ?? [];
  const paidIds = rows.filter((w) => w.status === 'paid').map((w) => w.id);
  if (paidIds.some((id) => !prompted.has(id))) setPrompted(new Set([...prompted, ...paidIds]));
  const paid = rows.filter((w) => prompted.has(w.id) || w.status === 'paid');
  return (
    <div className="mc-stack" data-testid="withdraw-panel">
      {paid.map((w) => (
        <WithdrawalConfirmation key={w.id} withdrawal={w} />
      ))}
      <div className="mc-card">
        <h1 className="mc-title">{t('withdraw_title')}</h1>
        {note}
        {limits.error && <FormMessage message={errorMessage(limits.error)} />}
        {limits.isPending && <p className="cx-muted">{t('loading')}</p>}
        {limits.data && hasPassword === false && <WithdrawPasswordForm />}
        {limits.data && hasPassword === true && <WithdrawForm />}
      </div>
      {limits.data && hasPassword === true && <BankAccounts />}
      <WithdrawalList />
    </div>
  );
}

/**
 * A failed first set of the withdraw password. The server answers a wrong login password with the
 * generic OLD_PASSWORD_WRONG ("old password"); here the field is the login password, so say that, on it.
 */
export function withdrawPasswordSetError(err: unknown): { fields: FieldErrors; form: FieldMessage | null } {
  if (err instanceof ApiError && err.code === ErrorCode.OLD_PASSWORD_WRONG) return { fields: { loginPassword: { key: 'wallet:login_password_wrong' } }, form: null };
  return { fields: {}, form: errorMessage(err) };
}

function WithdrawPasswordForm() {
  const { t } = useTranslation('wallet');
  const set = useSetWithdrawPassword();
  const [v, setV] = useState({ loginPassword: '', newWithdrawPassword: '', confirmNewWithdrawPassword: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<FieldMessage | null>(null);
  const field = (name: keyof typeof v) => ({ name, value: v[name], error: errors[name], onChange: (x: string) => setV((o) => ({ ...o, [name]: x })), type: 'password' as const });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const next: FieldErrors = {};
    if (!v.loginPassword) next.loginPassword = MSG.empty;
    if (v.newWithdrawPassword.length < 6 || v.newWithdrawPassword.length > 64) next.newWithdrawPassword = { key: 'wallet:withdraw_password_rule' };
    if (v.confirmNewWithdrawPassword !== v.newWithdrawPassword) next.confirmNewWithdrawPassword = MSG.confirmMismatch;
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    setFormError(null);
    set.mutate(v, {
      onError: (err) => {
        const failed = withdrawPasswordSetError(err);
        setErrors(failed.fields);
        setFormError(failed.form);
      },
    });
  };
  return (
    <form className="cx-form" onSubmit={submit} noValidate data-testid="withdraw-password-form">
      <p className="cx-muted">{t('withdraw_password_needed')}</p>
      <FormField {...field('loginPassword')} label={t('login_password')} autoComplete="current-password" required />
      <FormField {...field('newWithdrawPassword')} label={t('withdraw_password_new')} autoComplete="new-password" required hint={t('withdraw_password_rule')} />
      <FormField {...field('confirmNewWithdrawPassword')} label={t('withdraw_password_confirm')} autoComplete="new-password" required />
      <FormMessage message={formError} />
      <button type="submit" className="btn btn--primary btn--wrap" disabled={set.isPending} data-testid="withdraw-password-submit">
        {set.isPending ? t('submitting') : t('withdraw_password_set')}
      </button>
      <p className="form-notice">
        <Link to={TRANSACTION_PASSWORD_HREF} className="link-btn" data-testid="txpw-security-link">{t('withdraw_password_where')}</Link>
      </p>
    </form>
  );
}

/**
 * The form's 'Withdrawal of X requested; we let you know when it is paid' after a change of a withdrawal:
 * gone once that withdrawal is no longer requested (an operator rejected it, say, while the notice still
 * promised the payment), kept for any other.
 */
export function requestedNoticeAfter<W extends { id: string }>(done: W | null, event: { withdrawalId: string; status: WithdrawalStatus }): W | null {
  return done && event.withdrawalId === done.id && event.status !== 'requested' ? null : done;
}

function WithdrawForm() {
  const { exponent } = useCurrency();
  const amountInvalid = useAmountInvalid();
  const { t } = useTranslation('wallet');
  const money = useMoney();
  const limits = useWithdrawalLimits().data!;
  const banks = useBankAccounts();
  const create = useCreateWithdrawal();
  const [bankId, setBankId] = useState<string | null>(null);
  const [amountText, setAmountText] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<FieldMessage | null>(null);
  const [done, setDone] = useState<TWithdrawal | null>(null);
  const requestId = useRef<string | null>(null);
  const list = banks.data?.list ?? [];
  const bank = list.find((b) => b.id === bankId) ?? list[0];
  const leftToday = Math.max(0, limits.dailyMax - limits.usedToday);
  const max = Math.min(limits.max, leftToday);
  // 'Withdrawal requested' stays only while that withdrawal is requested (the list shows what came next).
  useRealtimeEvent('withdrawal.updated', (env) => setDone((d) => requestedNoticeAfter(d, env.payload)));
  const changed = () => {
    requestId.current = null;
    setFormError(null);
    setDone(null);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (create.isPending) return;
    const next: FieldErrors = {};
    const amount = parseAmountMinor(amountText, exponent);
    if (amount === null || amount <= 0) next.amount = amountInvalid;
    // What is left of today's allowance can be below the minimum (₱0 once it is used up): then no amount
    // fits, and "between ₱100.00 and ₱0.00" said nothing; the daily limit is what stops it.
    else if (leftToday < limits.min) next.amount = { key: 'common:error_DAILY_LIMIT_EXCEEDED' };
    else if (amount < limits.min || amount > max) next.amount = { key: 'wallet:amount_range', values: { min: money(limits.min), max: money(max) } };
    if (!password) next.password = MSG.empty;
    if (!bank) next.bank = { key: 'wallet:bank_required' };
    setErrors(next);
    if (Object.keys(next).length > 0 || !bank || amount === null) return;
    // A refusal of the last try (a wrong password) is not left beside this one's answer.
    setFormError(null);
    requestId.current ??= newRequestId();
    create.mutate(
      { bankAccountId: bank.id, amount, withdrawPassword: password, requestId: requestId.current },
      {
        onSuccess: (w) => {
          requestId.current = null;
          setDone(w);
          setAmountText('');
          setPassword('');
        },
        onError: (err) => setFormError(errorMessage(err)),
      },
    );
  };

  return (
    <form className="cx-form" onSubmit={submit} noValidate data-testid="withdraw-form">
      <div className="form-field">
        <span className="form-field__label">{t('withdraw_to')}</span>
        {list.length === 0 ? (
          <p className="cx-muted" data-testid="withdraw-no-bank">{t('bank_none')}</p>
        ) : (
          <div role="radiogroup" aria-label={t('withdraw_to')} className="cx-options">
            {list.map((b) => (
              <button key={b.id} type="button" role="radio" aria-checked={b.id === bank?.id} className="cx-option" onClick={() => { setBankId(b.id); changed(); }} data-testid={`withdraw-bank-${b.id}`}>
                <span className="cx-option__name">{b.bankName}</span>
                <span className="cx-option__sub">{b.accountNumber} · {b.accountName}</span>
              </button>
            ))}
          </div>
        )}
        {errors.bank && <p className="form-field__error" role="alert">{t('bank_required')}</p>}
      </div>
      <div data-testid="withdraw-amount-field">
        <FormField
          name="amount"
          label={t('amount')}
          value={amountText}
          onChange={(x) => { setAmountText(x); changed(); }}
          inputMode="decimal"
          required
          error={errors.amount}
          hint={t('withdraw_limits', { min: money(limits.min), max: money(limits.max), left: money(leftToday) })}
        />
      </div>
      <div data-testid="withdraw-password-field">
        <FormField name="withdrawPassword" label={t('withdraw_password')} type="password" value={password} onChange={setPassword} error={errors.password} required autoComplete="off" />
        <TransactionPasswordLink isSet />
      </div>
      <FormMessage message={formError} />
      {done && (
        <p className="form-message form-message--success" role="status" data-testid="withdraw-requested">
          {t('withdraw_requested', { amount: money(done.amount) })}
        </p>
      )}
      <button type="submit" className="btn btn--primary" disabled={create.isPending || list.length === 0} data-testid="withdraw-submit">
        {create.isPending ? t('submitting') : t('withdraw_submit')}
      </button>
    </form>
  );
}

function BankAccounts() {
  const { t } = useTranslation('wallet');
  const banks = useBankAccounts();
  const add = useAddBankAccount();
  const remove = useRemoveBankAccount();
  const [isAdding, setAdding] = useState(false);
  const [v, setV] = useState({ bankName: '', accountName: '', accountNumber: '', withdrawPassword: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<FieldMessage | null>(null);
  const list = banks.data?.list ?? [];
  const isFull = list.length >= MAX_BANK_ACCOUNTS;
  const field = (name: keyof typeof v) => ({ name, value: v[name], error: errors[name], onChange: (x: string) => setV((o) => ({ ...o, [name]: x })) });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const next: FieldErrors = {};
    if (v.bankName.trim().length < 2) next.bankName = MSG.empty;
    if (!/^[\p{L} .,'-]{2,64}$/u.test(v.accountName.trim())) next.accountName = { key: 'wallet:account_name_rule' };
    if (!/^[0-9]{6,20}$/.test(v.accountNumber.trim())) next.accountNumber = { key: 'wallet:account_number_rule' };
    if (!v.withdrawPassword) next.withdrawPassword = MSG.empty;
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    setFormError(null);
    add.mutate(v, {
      onSuccess: () => {
        setAdding(false);
        setV({ bankName: '', accountName: '', accountNumber: '', withdrawPassword: '' });
      },
      onError: (err) => setFormError(errorMessage(err)),
    });
  };

  return (
    <div className="mc-card" data-testid="bank-accounts">
      <div className="cx-head">
        <h2 className="mc-subtitle">
          {t('bank_accounts')} <span className="cx-muted">{t('bank_count', { count: list.length, max: MAX_BANK_ACCOUNTS })}</span>
        </h2>
        {!isAdding && (
          <button type="button" className="btn btn--outline btn--sm" disabled={isFull} onClick={() => setAdding(true)} data-testid="bank-add">
            {t('bank_add')}
          </button>
        )}
      </div>
      {isFull && <p className="cx-muted">{t('bank_full', { max: MAX_BANK_ACCOUNTS })}</p>}
      {remove.error && <FormMessage message={errorMessage(remove.error)} />}
      <div className="cx-table-wrap">
        <table className="cx-table">
          <thead>
            <tr>
              <th>{t('bank_name')}</th>
              <th>{t('account_name')}</th>
              <th>{t('account_number')}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {list.map((b) => (
              <tr key={b.id} data-testid={`bank-row-${b.id}`}>
                <td data-label={t('bank_name')}>{b.bankName}</td>
                <td data-label={t('account_name')}>{b.accountName}</td>
                <td data-label={t('account_number')}>{b.accountNumber}</td>
                <td className="cx-num">
                  <button
                    type="button"
                    className="btn btn--ghost btn--sm"
                    disabled={remove.isPending}
                    onClick={() => {
                      if (window.confirm(t('bank_remove_confirm', { number: b.accountNumber }))) remove.mutate(b.id);
                    }}
                    data-testid={`bank-remove-${b.id}`}
                  >
                    {t('remove')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {banks.data && list.length === 0 && <p className="cx-empty">{t('bank_none')}</p>}
      </div>
      {isAdding && (
        <form className="cx-form" onSubmit={submit} noValidate data-testid="bank-add-form">
          <FormField {...field('bankName')} label={t('bank_name')} required maxLength={64} />
          <FormField {...field('accountName')} label={t('account_name')} required maxLength={64} hint={t('account_name_rule')} />
          <FormField {...field('accountNumber')} label={t('account_number')} required inputMode="numeric" maxLength={20} />
          <FormField {...field('withdrawPassword')} label={t('withdraw_password')} type="password" required autoComplete="off" />
          <FormMessage message={formError} />
          <div className="mc-actions">
            <button type="submit" className="btn btn--primary" disabled={add.isPending} data-testid="bank-add-submit">
              {add.isPending ? t('submitting') : t('bank_save')}
            </button>
            <button type="button" className="btn btn--ghost" onClick={() => setAdding(false)} data-testid="bank-add-cancel">
              {t('cancel')}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}

function WithdrawalList() {
  const formatDateTime = useDateTime();
  const { t } = useTranslation('wallet');
  const money = useMoney();
  const [page, setPage] = useState(1);
  const q = useWithdrawals(page);
  const rows = q.data?.list ?? [];
  return (
    <div className="mc-card">
      <RefreshHead title={t('withdraw_list')} onRefresh={() => void q.refetch()} label={t('refresh')} testId="withdraw-list-refresh" />
      {q.error && <FormMessage message={errorMessage(q.error)} />}
      <DataTable
        testId="withdraw-list" rows={rows} rowKey={(w) => w.id} loaded={!!q.data} emptyText={t('empty')}
        rowProps={(w) => ({ 'data-testid': `withdraw-row-${w.id}`, 'data-status': w.status })}
        columns={[
          { key: 'time', label: t('col_time'), cell: (w) => formatDateTime(w.createdAt) },
          { key: 'reference', label: t('col_reference'), cell: (w) => `W${w.id}` },
          { key: 'bank', label: t('col_bank'), cell: (w) => `${w.bankName} ${w.accountNumber}` },
          { key: 'amount', label: t('amount'), num: true, tdClass: 'cx-amount', cell: (w) => money(w.amount) },
          {
            key: 'status', label: t('col_status'), cell: (w) => (
              <>
                <span className={`cx-pill cx-pill--${WITHDRAWAL_TONE[w.status]}`}>{t(`withdrawal_status_${w.status}`)}</span>
                {w.status === 'rejected' && w.reason && <span className="cx-muted"> {w.reason}</span>}
                {w.status === 'partially_received' && w.remainingAmount !== null && (
                  <span className="cx-muted"> {t('remaining_short', { amount: money(w.remainingAmount) })}</span>
                )}
              </>
            ),
          },
        ]}
      />
      <Pager page={page} pages={pagesOf(q.data)} onPage={setPage} prefix="withdraw" />
    </div>
  );
}
