import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import { DEPOSIT_STATUSES, type DepositStatus } from '@portal/contracts/api/cashier';
import { channelName } from '../../../lib/code-labels';
import { useAmount, useCurrency } from '../../../lib/use-money';
import { useDecideDeposit } from '../api/decide-deposit';
import { depositsQuery, useOpsDeposits, type TOpsDeposit } from '../api/get-deposits';
import { useOpsTime } from '../lib/format';
import { ActionDialog } from './action-dialog';
import { useOpsCan } from './ops-gate';
import { ErrorNote, ListTable, Money, PageHead, Pager, StatusChip, SuccessNote, Tabs, type ChipTone } from './ops-ui';

const PAGE_SIZE = 50;
/** The provider of bank transfers an operator confirms by hand. */
const MANUAL_PROVIDER = 'manual';
const PROVIDER_FILTERS = ['manual', 'all'] as const;
type ProviderFilter = (typeof PROVIDER_FILTERS)[number];

const DEPOSIT_TONE: Record<DepositStatus, ChipTone> = { pending: 'warn', paid: 'success', failed: 'danger', rejected: 'muted', expired: 'muted' };

const isStatus = (v: string | null): v is DepositStatus => v !== null && (DEPOSIT_STATUSES as readonly string[]).includes(v);

/** /ops/deposits: pending manual bank deposits to confirm or reject, and the others by status. */
export function DepositsPage() {
  const formatAmount = useAmount();
  const { code: currency } = useCurrency();
  const formatDateTime = useOpsTime();
  const { t } = useTranslation('ops');
  const [search, setSearch] = useSearchParams();
  const statusParam = search.get('status');
  const status: DepositStatus = isStatus(statusParam) ? statusParam : 'pending';
  // Pending: the manual bank deposits an operator must decide (a pending e-wallet deposit waits for its
  // provider, not for the console). Other statuses: every provider unless asked (paid GCash deposits
  // were hidden behind the manual filter).
  const providerParam = search.get('provider');
  const provider: ProviderFilter = providerParam === 'all' || providerParam === 'manual' ? providerParam : status === 'pending' ? 'manual' : 'all';
  const [pageNo, setPageNo] = useState(1);
  const list = useOpsDeposits({ status, provider: provider === 'all' ? '' : MANUAL_PROVIDER, pageNo, pageSize: PAGE_SIZE });
  const pendingManual = useQuery(depositsQuery({ status: 'pending', provider: MANUAL_PROVIDER, pageNo: 1, pageSize: 1 }));
  const decide = useDecideDeposit();
  const canAct = useOpsCan('deposits.decide');
  const [dialog, setDialog] = useState<{ d: TOpsDeposit; decision: 'confirm' | 'reject' } | null>(null);
  const [flash, setFlash] = useState('');

  const go = (next: { status: DepositStatus; provider: ProviderFilter }) => {
    setPageNo(1);
    setFlash('');
    setSearch(next, { replace: true });
  };
  const open = (d: TOpsDeposit, decision: 'confirm' | 'reject') => {
    decide.reset();
    setFlash('');
    setDialog({ d, decision });
  };
  const rows = list.data?.list ?? [];

  return (
    <section className="ops-page" data-testid="ops-deposits-page">
      <PageHead title={t('nav_deposits')}>
        <Tabs
          value={status}
          label={t('filter_status')}
          testPrefix="ops-deposits-tab"
          onChange={(v) => go({ status: v, provider: v === 'pending' ? 'manual' : 'all' })}
          options={DEPOSIT_STATUSES.map((v) => ({ value: v, label: t(`deposit_status_${v}`) }))}
          counts={pendingManual.data ? { pending: pendingManual.data.total } : {}}
        />
        <Tabs
          value={provider}
          label={t('filter_provider')}
          testPrefix="ops-deposits-provider"
          onChange={(v) => go({ status, provider: v })}
          options={PROVIDER_FILTERS.map((v) => ({ value: v, label: t(`provider_filter_${v}`) }))}
        />
      </PageHead>
      <SuccessNote>{flash}</SuccessNote>
      <ErrorNote error={list.error} testId="ops-deposits-error" />
      <ListTable
        list={list}
        rows={rows}
        empty={t('empty_deposits')}
        columns={[
          { label: t('col_id') },
          { label: t('col_created_at') },
          { label: t('col_member') },
          { label: t('col_amount', { currency }), className: 'num' },
          { label: t('col_channel') },
          { label: t('col_payer_reference') },
          { label: t('col_reference') },
          { label: t('col_status') },
          { label: t('col_actions'), className: 'ops-table__actions' },
        ]}
        row={(d) => {
          const isDecidable = canAct && d.provider === MANUAL_PROVIDER && d.status === 'pending';
          return (
            <tr key={d.id} data-testid={`ops-deposit-row-${d.id}`} data-status={d.status}>
              <td className="mono">{d.id}</td>
              <td className="nowrap">{formatDateTime(d.createdAt)}</td>
              <td>
                <span className="strong">{d.account}</span>
                <span className="ops-sub">#{d.memberId}</span>
              </td>
              <td className="num strong">
                <Money minor={d.amount} />
              </td>
              <td>
                <DepositChannel code={d.channelCode} provider={d.provider} />
              </td>
              <td className="mono">{d.payerReference ?? '—'}</td>
              <td className="mono">{d.reference}</td>
              <td>
                <StatusChip tone={DEPOSIT_TONE[d.status]} testId={`ops-deposit-status-${d.id}`}>
                  {t(`deposit_status_${d.status}`)}
                </StatusChip>
                {d.failureReason && <span className="ops-sub">{d.failureReason}</span>}
              </td>
              <td className="ops-table__actions">
                {isDecidable && (
                  <div className="ops-row-actions">
                    <button type="button" className="ops-btn ops-btn--sm ops-btn--primary" disabled={decide.isPending} onClick={() => open(d, 'confirm')} data-testid={`ops-deposit-confirm-${d.id}`}>
                      {t('action_confirm_deposit')}
                    </button>
                    <button type="button" className="ops-btn ops-btn--sm ops-btn--danger" disabled={decide.isPending} onClick={() => open(d, 'reject')} data-testid={`ops-deposit-reject-${d.id}`}>
                      {t('action_reject')}
                    </button>
                  </div>
                )}
              </td>
            </tr>
          );
        }}
      />
      {list.data && <Pager pageNo={pageNo} pageSize={PAGE_SIZE} total={list.data.total} onPage={setPageNo} testPrefix="ops-deposits-pager" />}

      {dialog && (
        <ActionDialog
          open
          title={t(dialog.decision === 'confirm' ? 'action_confirm_deposit_title' : 'action_reject_deposit_title', { id: dialog.d.id })}
          summary={
            <dl className="ops-kv">
              <dt>{t('col_member')}</dt>
              <dd>{dialog.d.account}</dd>
              <dt>{t('col_amount', { currency })}</dt>
              <dd className="strong">{formatAmount(dialog.d.amount)}</dd>
              <dt>{t('col_payer_reference')}</dt>
              <dd className="mono">{dialog.d.payerReference ?? '—'}</dd>
            </dl>
          }
          input={{ text: dialog.decision === 'confirm' ? 'optionalNote' : 'reason', payoutReference: false }}
          submitLabel={t(dialog.decision === 'confirm' ? 'action_confirm_deposit' : 'action_reject')}
          tone={dialog.decision === 'confirm' ? 'primary' : 'danger'}
          busy={decide.isPending}
          error={decide.error}
          onClose={() => setDialog(null)}
          onSubmit={(text) =>
            decide.mutate(
              dialog.decision === 'confirm' ? { id: dialog.d.id, decision: 'confirm', note: text } : { id: dialog.d.id, decision: 'reject', reason: text },
              {
                onSuccess: (d) => {
                  setDialog(null);
                  setFlash(t('flash_deposit', { id: d.id, status: t(`deposit_status_${d.status}`) }));
                },
              },
            )
          }
        />
      )}
    </section>
  );
}

/** A deposit's payment method by its name in the console's language (never the code: MOMO, GCASH), and its provider. */
export function DepositChannel({ code, provider }: { code: string; provider: string }) {
  const { t } = useTranslation(['ops', 'wallet']);
  return (
    <>
      <span data-testid="ops-deposit-channel">{channelName(t, code)}</span>
      <span className="ops-sub">{provider}</span>
    </>
  );
}
