import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueries } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import type { WithdrawalStatus } from '@portal/contracts/api/cashier';
import { useAmount, useCurrency } from '../../../lib/use-money';
import { useDecideWithdrawal } from '../api/decide-withdrawal';
import { useOpsWithdrawals, withdrawalsQuery, type TOpsWithdrawal } from '../api/get-withdrawals';
import { useOpsTime } from '../lib/format';
import { ACTION_INPUT, DONE_STATUSES, WITHDRAWAL_TABS, withdrawalActionsFor, type WithdrawalAction, type WithdrawalTab } from '../lib/withdrawal-actions';
import { ActionDialog } from './action-dialog';
import { useOpsCan } from './ops-gate';
import { ErrorNote, ListTable, Money, PageHead, Pager, StatusChip, SuccessNote, Tabs, type ChipTone } from './ops-ui';
import { ProofViewer } from './proof-viewer';

const PAGE_SIZE = 50;
const COUNTED: readonly WithdrawalStatus[] = ['requested', 'approved', 'held', 'paid'];

export const WITHDRAWAL_TONE: Record<WithdrawalStatus, ChipTone> = {
  requested: 'warn',
  approved: 'info',
  held: 'danger',
  paid: 'info',
  received: 'success',
  auto_received: 'success',
  partially_received: 'warn',
  not_received: 'danger',
  rejected: 'muted',
};

/** data-testid of each action button: `ops-<name>-<id>`. */
const ACTION_TESTID: Record<WithdrawalAction, string> = {
  approve: 'approve',
  reject: 'reject',
  paid: 'paid',
  unknown: 'unknown',
  reconcilePaid: 'reconcile-paid',
  reconcileFailed: 'reconcile-failed',
};
const DANGER_ACTIONS: readonly WithdrawalAction[] = ['reject', 'unknown', 'reconcileFailed'];

const isTab = (v: string | null): v is WithdrawalTab => v !== null && (WITHDRAWAL_TABS as readonly string[]).includes(v);
const isDone = (v: string | null): v is WithdrawalStatus => v !== null && (DONE_STATUSES as readonly string[]).includes(v);

/** /ops/withdrawals: the queue by status with the actions the legal transitions allow. */
export function WithdrawalsPage() {
  const formatAmount = useAmount();
  const { code: currency } = useCurrency();
  const formatDateTime = useOpsTime();
  const { t } = useTranslation('ops');
  const [search, setSearch] = useSearchParams();
  const tabParam = search.get('tab');
  const tab: WithdrawalTab = isTab(tabParam) ? tabParam : 'requested';
  const doneParam = search.get('final');
  const doneStatus: WithdrawalStatus = isDone(doneParam) ? doneParam : 'rejected';
  const [pageNo, setPageNo] = useState(1);
  const status: WithdrawalStatus = tab === 'done' ? doneStatus : tab;
  const list = useOpsWithdrawals({ status, pageNo, pageSize: PAGE_SIZE });
  const counts = useQueries({ queries: COUNTED.map((s) => withdrawalsQuery({ status: s, pageNo: 1, pageSize: 1 })) });
  const decide = useDecideWithdrawal();
  const canAct = useOpsCan('withdrawals.decide');
  const [dialog, setDialog] = useState<{ w: TOpsWithdrawal; action: WithdrawalAction } | null>(null);
  const [proofsOf, setProofsOf] = useState<TOpsWithdrawal | null>(null);
  const [flash, setFlash] = useState('');

  const go = (next: Record<string, string>) => {
    setPageNo(1);
    setFlash('');
    setSearch(next, { replace: true });
  };
  const open = (w: TOpsWithdrawal, action: WithdrawalAction) => {
    decide.reset();
    setFlash('');
    setDialog({ w, action });
  };
  const rows = list.data?.list ?? [];

  return (
    <section className="ops-page" data-testid="ops-withdrawals-page">
      <PageHead title={t('nav_withdrawals')}>
        <Tabs
          value={tab}
          label={t('filter_status')}
          testPrefix="ops-withdrawals-tab"
          onChange={(v) => go(v === 'done' ? { tab: v, final: doneStatus } : { tab: v })}
          options={WITHDRAWAL_TABS.map((v) => ({ value: v, label: v === 'done' ? t('tab_done') : t(`withdrawal_status_${v}`) }))}
          counts={Object.fromEntries(COUNTED.map((s, i) => [s, counts[i]?.data?.total]).filter(([, n]) => n !== undefined))}
        />
      </PageHead>
      {tab === 'done' && (
        <Tabs
          value={doneStatus}
          label={t('filter_final_status')}
          testPrefix="ops-withdrawals-final"
          onChange={(v) => go({ tab: 'done', final: v })}
          options={DONE_STATUSES.map((v) => ({ value: v, label: t(`withdrawal_status_${v}`) }))}
        />
      )}
      <SuccessNote>{flash}</SuccessNote>
      <ErrorNote error={list.error} testId="ops-withdrawals-error" />
      <ListTable
        list={list}
        rows={rows}
        empty={t('empty_withdrawals')}
        columns={[
          { label: t('col_id') },
          { label: t('col_requested_at') },
          { label: t('col_member') },
          { label: t('col_amount', { currency }), className: 'num' },
          { label: t('col_bank') },
          { label: t('col_status') },
          { label: t('col_details') },
          { label: t('col_actions'), className: 'ops-table__actions' },
        ]}
        row={(w) => (
          <tr key={w.id} data-testid={`ops-withdrawal-row-${w.id}`} data-status={w.status}>
            <td className="mono">{w.id}</td>
            <td className="nowrap">{formatDateTime(w.createdAt)}</td>
            <td>
              <span className="strong">{w.account}</span>
              <span className="ops-sub">#{w.memberId}</span>
            </td>
            <td className="num strong">
              <Money minor={w.amount} />
            </td>
            <td>
              <span>{w.bankName}</span>
              <span className="ops-sub">
                {w.accountName} · <span className="mono">{w.fullAccountNumber}</span>
              </span>
            </td>
            <td>
              <StatusChip tone={WITHDRAWAL_TONE[w.status]} testId={`ops-withdrawal-status-${w.id}`}>
                {t(`withdrawal_status_${w.status}`)}
              </StatusChip>
            </td>
            <td className="ops-details">
              <WithdrawalDetails w={w} onProofs={() => setProofsOf(w)} />
            </td>
            <td className="ops-table__actions">
              <div className="ops-row-actions">
                {canAct &&
                  withdrawalActionsFor(w.status).map((a) => (
                    <button
                      key={a}
                      type="button"
                      className={`ops-btn ops-btn--sm${DANGER_ACTIONS.includes(a) ? ' ops-btn--danger' : a === 'approve' || a === 'paid' || a === 'reconcilePaid' ? ' ops-btn--primary' : ''}`}
                      disabled={decide.isPending}
                      onClick={() => open(w, a)}
                      data-testid={`ops-${ACTION_TESTID[a]}-${w.id}`}
                    >
                      {t(`action_${a}`)}
                    </button>
                  ))}
              </div>
            </td>
          </tr>
        )}
      />
      {list.data && <Pager pageNo={pageNo} pageSize={PAGE_SIZE} total={list.data.total} onPage={setPageNo} testPrefix="ops-withdrawals-pager" />}

      {dialog && (
        <ActionDialog
          open
          title={t(`action_${dialog.action}_title`, { id: dialog.w.id })}
          summary={
            <dl className="ops-kv">
              <dt>{t('col_member')}</dt>
              <dd>{dialog.w.account}</dd>
              <dt>{t('col_amount', { currency })}</dt>
              <dd className="strong">{formatAmount(dialog.w.amount)}</dd>
              <dt>{t('col_bank')}</dt>
              <dd>
                {dialog.w.bankName} · {dialog.w.accountName} · <span className="mono">{dialog.w.fullAccountNumber}</span>
              </dd>
            </dl>
          }
          input={ACTION_INPUT[dialog.action]}
          submitLabel={t(`action_${dialog.action}`)}
          tone={DANGER_ACTIONS.includes(dialog.action) ? 'danger' : 'primary'}
          busy={decide.isPending}
          error={decide.error}
          onClose={() => setDialog(null)}
          onSubmit={(text, payoutReference) =>
            decide.mutate(
              { id: dialog.w.id, action: dialog.action, text, payoutReference },
              {
                onSuccess: (w) => {
                  setDialog(null);
                  setFlash(t('flash_withdrawal', { id: w.id, status: t(`withdrawal_status_${w.status}`) }));
                },
              },
            )
          }
        />
      )}
      {proofsOf && <ProofViewer id={proofsOf.id} count={proofsOf.proofCount} onClose={() => setProofsOf(null)} />}
    </section>
  );
}

/** Reason, payout reference, and the player's confirmation (received amount, proofs, auto-receive). */
function WithdrawalDetails({ w, onProofs }: { w: TOpsWithdrawal; onProofs: () => void }) {
  const formatAmount = useAmount();
  const formatDateTime = useOpsTime();
  const { t } = useTranslation('ops');
  const items: [string, ReactNode][] = [];
  if (w.reason) items.push([t('field_reason'), w.reason]);
  if (w.payoutReference) items.push([t('field_payout_reference'), <span className="mono">{w.payoutReference}</span>]);
  if (w.paidAt) items.push([t('paid_at'), formatDateTime(w.paidAt)]);
  if (w.status === 'paid' && w.autoReceiveAt) items.push([t('auto_receive_at'), formatDateTime(w.autoReceiveAt)]);
  if (w.receivedAmount !== null) items.push([t('received_amount'), formatAmount(w.receivedAmount)]);
  if (w.remainingAmount) items.push([t('remaining_amount'), <span className="ops-text-danger">{formatAmount(w.remainingAmount)}</span>]);
  if (w.confirmedAt) items.push([t('confirmed_at'), formatDateTime(w.confirmedAt)]);
  if (items.length === 0 && w.proofCount === 0) return <span className="ops-muted">—</span>;
  return (
    <>
      {items.length > 0 && (
        <dl className="ops-kv ops-kv--inline">
          {items.map(([k, v]) => (
            <div key={k} className="ops-kv__pair">
              <dt>{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
      )}
      {w.proofCount > 0 && (
        <button type="button" className="ops-btn ops-btn--sm ops-btn--link" onClick={onProofs} data-testid={`ops-proofs-${w.id}`}>
          {t('proofs_button', { count: w.proofCount })}
        </button>
      )}
    </>
  );
}
