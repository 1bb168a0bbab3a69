import { useRef, useState, type ReactNode } from 'react';
import { channelName } from '../../../lib/code-labels';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import type { TDeposit, TPaymentChannel } from '@portal/contracts/api/cashier';
import { errorMessage, type FieldMessage } from '../../../lib/field-message';
import { ErrorCode } from '@portal/contracts/api/errors';
import { isApiError } from '../../../lib/api';
import { withLang } from '../../../lib/with-lang';
import { newRequestId, parseAmountMinor } from '../../../lib/money-input';
import { useAmountInvalid, useCurrency, useDateTime, useMoney } from '../../../lib/use-money';
import { useRealtimeEvent } from '../../../realtime/realtime-context';
import { FormField, FormMessage } from '../../../ui/form-field';
import { Pager, pagesOf } from '../../../ui/pager';
import { DataTable, RefreshHead } from '../../../ui/data-table';
import { useChannels } from '../api/get-channels';
import { DEPOSITS_KEY, useDeposits } from '../api/get-deposits';
import { useCreateDeposit } from '../api/create-deposit';
import '../../../ui/cashier.css';

const STATUS_TONE: Record<TDeposit['status'], string> = { pending: 'wait', paid: 'ok', failed: 'bad', rejected: 'bad', expired: 'bad' };

/**
 * A refused deposit order. Over a deposit limit the player set (RG_LIMIT_REACHED, `value` kind, period,
 * limit and used: paid and pending orders of the period) says which limit, how much of it is taken and
 * how much may still be deposited in the period, instead of only 'beyond a limit you set'.
 */
export function depositErrorMessage(err: unknown, money: (minor: number) => string): FieldMessage {
  if (isApiError(err) && err.code === ErrorCode.RG_LIMIT_REACHED) {
    const v = err.value as { kind?: unknown; period?: unknown; limit?: unknown; used?: unknown } | undefined;
    if (v?.kind === 'deposit' && (v.period === 'day' || v.period === 'week' || v.period === 'month') && typeof v.limit === 'number' && typeof v.used === 'number') {
      return { key: `wallet:deposit_rg_limit_${v.period}`, values: { limit: money(v.limit), used: money(v.used), left: money(Math.max(0, v.limit - v.used)) } };
    }
  }
  return errorMessage(err);
}

/**
 * Member centre `depositv2`: pick a channel, an amount within its limits, then either go to the
 * provider's pay page or (manual bank) transfer to the shown account quoting the reference and wait
 * for an operator. The requestId stays the same while the same submit is retried.
 */
export function DepositPanel({ navigate = (url: string) => window.location.assign(url), firstDepositOffer }: {
  navigate?: (url: string) => void;
  /** Shown above the form before the player's first deposit (the responsible-gaming limits offer); `done` hides it. */
  firstDepositOffer?: (done: () => void) => ReactNode;
}) {
  const { t, i18n } = useTranslation('wallet');
  const history = useDeposits(1);
  const [offerDone, setOfferDone] = useState(false);
  const isFirstDeposit = history.isSuccess && history.data.total === 0;
  const money = useMoney();
  const { exponent } = useCurrency();
  const amountInvalid = useAmountInvalid();
  const channels = useChannels();
  const create = useCreateDeposit();
  const [code, setCode] = useState<string | null>(null);
  const [amountText, setAmountText] = useState('');
  const [payerRef, setPayerRef] = useState('');
  const [fieldError, setFieldError] = useState<FieldMessage | undefined>();
  const [formError, setFormError] = useState<FieldMessage | null>(null);
  const [manualOrder, setManualOrder] = useState<TDeposit | null>(null);
  const requestId = useRef<string | null>(null);

  const list = channels.data?.list ?? [];
  const channel: TPaymentChannel | undefined = list.find((c) => c.code === code) ?? list[0];
  const isManual = channel?.provider === 'manual';

  const changed = () => {
    requestId.current = null;
    setFormError(null);
    setManualOrder(null);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!channel || create.isPending) return;
    const amount = parseAmountMinor(amountText, exponent);
    if (amount === null || amount <= 0) return setFieldError(amountInvalid);
    if (amount < channel.minAmount || amount > channel.maxAmount) {
      return setFieldError({ key: 'wallet:amount_range', values: { min: money(channel.minAmount), max: money(channel.maxAmount) } });
    }
    setFieldError(undefined);
    setFormError(null);
    requestId.current ??= newRequestId();
    create.mutate(
      { channelCode: channel.code, amount, requestId: requestId.current, ...(isManual && payerRef.trim() ? { payerReference: payerRef.trim() } : {}) },
      {
        onSuccess: (order) => {
          requestId.current = null;
          // The pay page speaks the player's language (lang=en|ty).
          if (order.payUrl) navigate(withLang(order.payUrl, i18n.language));
          else setManualOrder(order);
        },
        onError: (err) => setFormError(depositErrorMessage(err, money)),
      },
    );
  };

  return (
    <div className="mc-stack" data-testid="deposit-panel">
      <div className="mc-card">
        <h1 className="mc-title">{t('deposit_title')}</h1>
        {channels.error && <FormMessage message={errorMessage(channels.error)} />}
        {channels.isPending && <p className="cx-muted">{t('loading')}</p>}
        {channels.data && list.length === 0 && <p className="cx-muted" data-testid="deposit-none">{t('deposit_none')}</p>}
        {firstDepositOffer && isFirstDeposit && !offerDone && firstDepositOffer(() => setOfferDone(true))}
        {list.length > 0 && channel && (
          <form className="cx-form" onSubmit={submit} noValidate>
            <div role="radiogroup" aria-label={t('deposit_channel')} className="cx-options" data-testid="deposit-channels">
              {list.map((c) => (
                <button
                  key={c.code}
                  type="button"
                  role="radio"
                  aria-checked={c.code === channel.code}
                  className="cx-option"
                  onClick={() => {
                    setCode(c.code);
                    changed();
                  }}
                  data-testid={`deposit-channel-${c.code}`}
                >
                  <span className="cx-option__name">{channelName(t, c.code, c.name)}</span>
                  <span className="cx-option__sub">{t(`channel_kind_${c.kind}`)}</span>
                </button>
              ))}
            </div>
            {isManual && channel.bankDetails && (
              <div className="cx-box" data-testid="deposit-bank-details">
                <p className="cx-muted">{t('deposit_manual_hint')}</p>
                <dl>
                  <dt>{t('bank_name')}</dt>
                  <dd>{channel.bankDetails.bankName}</dd>
                  <dt>{t('account_name')}</dt>
                  <dd>{channel.bankDetails.accountName}</dd>
                  <dt>{t('account_number')}</dt>
                  <dd>{channel.bankDetails.accountNumber}</dd>
                </dl>
              </div>
            )}
            <div data-testid="deposit-amount-field">
              <FormField
                name="amount"
                label={t('amount')}
                value={amountText}
                onChange={(v) => {
                  setAmountText(v);
                  setFieldError(undefined);
                  changed();
                }}
                inputMode="decimal"
                required
                error={fieldError}
                hint={t('amount_limits', { min: money(channel.minAmount), max: money(channel.maxAmount) })}
              />
            </div>
            {isManual && (
              <FormField name="payerReference" label={t('deposit_payer_reference')} value={payerRef} onChange={(v) => { setPayerRef(v); changed(); }} maxLength={64} hint={t('deposit_payer_reference_hint')} />
            )}
            <FormMessage message={formError} />
            <button type="submit" className="btn btn--primary" disabled={create.isPending} data-testid="deposit-submit">
              {create.isPending ? t('submitting') : isManual ? t('deposit_submit_manual') : t('deposit_submit')}
            </button>
          </form>
        )}
        {manualOrder && (
          <div className="cx-banner" role="status" data-testid="deposit-manual-order">
            <p className="cx-banner__title">{t('deposit_manual_created', { amount: money(manualOrder.amount) })}</p>
            <p className="cx-muted">
              {t('deposit_quote_reference')} <strong data-testid="deposit-reference">{manualOrder.reference}</strong>
            </p>
            <p className="cx-muted">{t('deposit_manual_waiting')}</p>
          </div>
        )}
      </div>
      <RecentDeposits />
    </div>
  );
}

export function RecentDeposits() {
  const formatDateTime = useDateTime();
  const { t, i18n } = useTranslation('wallet');
  const money = useMoney();
  const qc = useQueryClient();
  const [page, setPage] = useState(1);
  const q = useDeposits(page);
  const channelList = useChannels().data?.list ?? [];
  // A credit or a failure changes an order's status: refresh the list (the balance updates itself).
  useRealtimeEvent('message.received', (env) => {
    if (env.payload.kind.startsWith('deposit_')) void qc.invalidateQueries({ queryKey: DEPOSITS_KEY });
  });
  const rows = q.data?.list ?? [];
  const pages = pagesOf(q.data);
  return (
    <div className="mc-card">
      <RefreshHead title={t('deposit_recent')} onRefresh={() => void q.refetch()} label={t('refresh')} testId="deposit-list-refresh" />
      {q.error && <FormMessage message={errorMessage(q.error)} />}
      <DataTable
        testId="deposit-list" rows={rows} rowKey={(d) => d.id} loaded={!!q.data} emptyText={t('empty')}
        rowProps={(d) => ({ 'data-testid': `deposit-row-${d.id}`, 'data-status': d.status })}
        columns={[
          { key: 'time', label: t('col_time'), cell: (d) => formatDateTime(d.createdAt) },
          { key: 'reference', label: t('col_reference'), cell: (d) => d.reference },
          { key: 'channel', label: t('col_channel'), cell: (d) => channelName(t, d.channelCode, channelList.find((c) => c.code === d.channelCode)?.name) },
          { key: 'amount', label: t('amount'), num: true, tdClass: 'cx-amount', cell: (d) => money(d.amount) },
          {
            key: 'status', label: t('col_status'), cell: (d) => (
              <>
                <span className={`cx-pill cx-pill--${STATUS_TONE[d.status]}`}>{t(`deposit_status_${d.status}`)}</span>
                {d.status === 'rejected' && d.reason && <span className="cx-muted" data-testid={`deposit-reason-${d.id}`}> {d.reason}</span>}
                {d.payUrl && (
                  <a className="link-btn" href={withLang(d.payUrl, i18n.language)} style={{ marginLeft: 8 }} data-testid={`deposit-pay-${d.id}`}>
                    {t('deposit_continue')}
                  </a>
                )}
              </>
            ),
          },
        ]}
      />
      <Pager page={page} pages={pages} onPage={setPage} prefix="deposit" />
    </div>
  );
}
