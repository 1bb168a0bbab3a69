import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toMajorInput } from '@portal/contracts/domain/money';
import { useAmount, useCurrency, useMoney, useMoneyExample } from '../../../lib/use-money';
import { useAdjustBalance, useOpsAdjustments } from '../api/adjust-balance';
import { useOpsTime } from '../lib/format';
import { parsePesos } from '../lib/money-input';
import { newRequestId } from '../lib/request-id';
import { ActionDialog } from './action-dialog';
import { useOpsCan } from './ops-gate';
import { EmptyRow, ErrorNote, OpsField, PageHead, Pager, TableBox } from './ops-ui';

/** ZOpsAdjustmentBody: a reason of at least 3 characters. */
const REASON_MIN = 3;

type Form = { account: string; amount: string; reason: string };
const EMPTY: Form = { account: '', amount: '', reason: '' };


/** /ops/adjustments: credit (+) or debit (-) a member's balance with a reason (admin). */
export function AdjustmentsPage() {
  const formatAmount = useAmount();
  const money = useMoney();
  const example = useMoneyExample();
  const { exponent, code: currency } = useCurrency();
  const formatDateTime = useOpsTime();
  const { t } = useTranslation('ops');
  const isAdmin = useOpsCan('balance.adjust');
  const adjust = useAdjustBalance();
  // The adjustments made, from the ledger, to those who may make them (it was the audit trail, which
  // finance may not read: finance saw a form and nothing of what it had done).
  const [recentPage, setRecentPage] = useState(1);
  const recent = useOpsAdjustments(recentPage, isAdmin);
  const [form, setForm] = useState<Form>(EMPTY);
  // One key per set of terms: a retry after a lost answer applies once; any edit starts a new one.
  const [requestId, setRequestId] = useState(newRequestId);
  const [isTried, setTried] = useState(false);
  const [isConfirming, setConfirming] = useState(false);
  const [doneAccount, setDoneAccount] = useState('');

  const amount = parsePesos(form.amount, { signed: true, exponent });
  const problems = {
    account: form.account.trim() === '',
    amount: amount === null,
    reason: form.reason.trim().length < REASON_MIN,
  };
  const isValid = !problems.account && !problems.amount && !problems.reason;
  const edit = (patch: Partial<Form>) => {
    setForm((f) => ({ ...f, ...patch }));
    setRequestId(newRequestId());
  };

  return (
    <section className="ops-page" data-testid="ops-adjustments-page">
      <PageHead title={t('nav_adjustments')} />
      {!isAdmin && <p className="ops-note ops-note--info" data-testid="ops-admin-only">{t('admin_only')}</p>}
      <div className="ops-split">
        <form
          className="ops-panel ops-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            setTried(true);
            if (isValid && isAdmin) {
              adjust.reset();
              setConfirming(true);
            }
          }}
        >
          <OpsField label={t('field_member_account')} value={form.account} onChange={(v) => edit({ account: v })} testId="ops-adjust-account" required disabled={!isAdmin} maxLength={64} invalid={isTried && problems.account} autoComplete="off" />
          <OpsField
            label={t('field_amount_signed', { currency })}
            value={form.amount}
            onChange={(v) => edit({ amount: v })}
            testId="ops-adjust-amount"
            required
            disabled={!isAdmin}
            inputMode="decimal"
            placeholder={toMajorInput(0, exponent)}
            invalid={isTried && problems.amount}
            hint={
              amount !== null ? (
                <span data-testid="ops-adjust-preview" className={amount < 0 ? 'ops-text-danger' : 'ops-text-success'}>
                  {t(amount < 0 ? 'adjust_preview_debit' : 'adjust_preview_credit', { amount: money(Math.abs(amount)) })}
                </span>
              ) : (
                t('amount_signed_hint', { credit: example(500_00), debit: example(-120_50) })
              )
            }
          />
          <OpsField label={t('field_reason')} value={form.reason} onChange={(v) => edit({ reason: v })} testId="ops-adjust-reason" required disabled={!isAdmin} multiline maxLength={500} invalid={isTried && problems.reason} hint={isTried && problems.reason ? t('text_too_short', { min: REASON_MIN }) : undefined} />
          <ErrorNote error={!isConfirming ? adjust.error : null} testId="ops-adjust-error" />
          <div className="ops-form__actions">
            <button type="submit" className="ops-btn ops-btn--primary" disabled={!isAdmin || adjust.isPending} data-testid="ops-adjust-submit">
              {t('adjust_submit')}
            </button>
          </div>
          {adjust.data && (
            <dl className="ops-kv ops-result" data-testid="ops-adjust-result">
              <dt>{t('field_member_account')}</dt>
              <dd className="strong">
                {doneAccount} <span className="ops-muted">#{adjust.data.memberId}</span>
              </dd>
              <dt>{t('adjust_transfer')}</dt>
              <dd className="mono">{adjust.data.transferId}</dd>
              <dt>{t('adjust_balance')}</dt>
              <dd className="strong" data-testid="ops-adjust-balance">{formatAmount(adjust.data.balance)}</dd>
              <dt>{t('adjust_available')}</dt>
              <dd>{formatAmount(adjust.data.available)}</dd>
              {adjust.data.replayed && (
                <>
                  <dt>{t('adjust_replayed_label')}</dt>
                  <dd>{t('adjust_replayed')}</dd>
                </>
              )}
            </dl>
          )}
        </form>

        {isAdmin && <div className="ops-panel">
          <h2 className="ops-panel__title">{t('adjust_recent')}</h2>
          <ErrorNote error={recent.error} />
          <TableBox>
            <thead>
              <tr>
                <th>{t('col_time')}</th>
                <th>{t('col_operator')}</th>
                <th>{t('col_member')}</th>
                <th className="num">{t('col_amount', { currency })}</th>
                <th>{t('field_reason')}</th>
              </tr>
            </thead>
            <tbody>
              {(recent.data?.list ?? []).length === 0 ? (
                <EmptyRow cols={5}>{recent.isPending ? t('loading') : t('empty_adjustments')}</EmptyRow>
              ) : (
                recent.data?.list.map((a) => (
                  <tr key={a.transferId} data-testid={`ops-adjust-row-${a.transferId}`}>
                    <td className="nowrap">{formatDateTime(a.at)}</td>
                    <td>{a.operator}</td>
                    <td>
                      <span className="strong">{a.account} </span>
                      <span className="mono ops-muted">#{a.memberId}</span>
                    </td>
                    <td className={`num strong ${a.amount < 0 ? 'ops-text-danger' : 'ops-text-success'}`}>{`${a.amount > 0 ? '+' : ''}${formatAmount(a.amount)}`}</td>
                    <td className="ops-wrap">{a.reason}<div className="mono ops-muted">{a.reference} · {t('adjust_transfer')} {a.transferId}</div></td>
                  </tr>
                ))
              )}
            </tbody>
          </TableBox>
          {recent.data && <Pager pageNo={recentPage} pageSize={10} total={recent.data.total} onPage={setRecentPage} testPrefix="ops-adjust-recent" />}
        </div>}
      </div>

      <ActionDialog
        open={isConfirming && amount !== null}
        title={t('adjust_confirm_title')}
        summary={
          <dl className="ops-kv">
            <dt>{t('field_member_account')}</dt>
            <dd className="strong">{form.account.trim()}</dd>
            <dt>{t('col_amount', { currency })}</dt>
            <dd className={`strong ${amount !== null && amount < 0 ? 'ops-text-danger' : 'ops-text-success'}`}>
              {amount !== null && t(amount < 0 ? 'adjust_preview_debit' : 'adjust_preview_credit', { amount: money(Math.abs(amount)) })}
            </dd>
            <dt>{t('field_reason')}</dt>
            <dd className="ops-wrap">{form.reason.trim()}</dd>
          </dl>
        }
        input={{ text: 'none', payoutReference: false }}
        submitLabel={t('adjust_submit')}
        tone={amount !== null && amount < 0 ? 'danger' : 'primary'}
        busy={adjust.isPending}
        error={adjust.error}
        onClose={() => setConfirming(false)}
        onSubmit={() => {
          if (amount === null) return;
          adjust.mutate(
            { account: form.account.trim(), amount, reason: form.reason.trim(), requestId },
            {
              onSuccess: () => {
                setDoneAccount(form.account.trim());
                setConfirming(false);
                setForm(EMPTY);
                setTried(false);
                setRequestId(newRequestId());
              },
            },
          );
        }}
      />
    </section>
  );
}
