import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { AGENT_APPLICATION_LIMITS, AGENT_APPLICATION_STATUSES, type TOpsAgentApplication } from '@portal/contracts/api/agent-applications';
import { Modal } from '../../../ui/modal';
import { useAgentApplications, useDecideApplication } from '../api/agent-applications';
import { useOpsTime } from '../lib/format';
import { useOpsCan } from './ops-gate';
import { ErrorNote, ListTable, PageHead, Pager, StatusChip, SuccessNote, Tabs, type ChipTone } from './ops-ui';

type Status = (typeof AGENT_APPLICATION_STATUSES)[number];
const PAGE_SIZE = 50;
const TONE: Record<Status, ChipTone> = { pending: 'warn', approved: 'success', rejected: 'muted' };
const isStatus = (v: string | null): v is Status => v !== null && (AGENT_APPLICATION_STATUSES as readonly string[]).includes(v);

/** /ops/agent-applications: players asking to become agents (the agent page's application), approved or rejected with a reason. */
export function AgentApplicationsPage() {
  const formatDateTime = useOpsTime();
  const { t } = useTranslation('ops');
  const [params, setParams] = useSearchParams();
  const sp = params.get('status');
  const status: Status = isStatus(sp) ? sp : 'pending';
  const [pageNo, setPageNo] = useState(1);
  const list = useAgentApplications({ status, pageNo, pageSize: PAGE_SIZE });
  const canAct = useOpsCan('agents.manage');
  const [deciding, setDeciding] = useState<{ app: TOpsAgentApplication; approve: boolean } | null>(null);
  const [flash, setFlash] = useState('');
  const rows = list.data?.list ?? [];
  return (
    <section className="ops-page" data-testid="ops-agent-applications-page">
      <PageHead title={t('nav_agent_applications')}>
        <Tabs
          value={status}
          label={t('filter_status')}
          testPrefix="ops-applications-tab"
          onChange={(v) => {
            setPageNo(1);
            setFlash('');
            setParams({ status: v }, { replace: true });
          }}
          options={AGENT_APPLICATION_STATUSES.map((v) => ({ value: v, label: t(`application_status_${v}`) }))}
        />
      </PageHead>
      {!canAct && <p className="ops-note ops-note--info" data-testid="ops-admin-only">{t('admin_only')}</p>}
      <SuccessNote>{flash}</SuccessNote>
      <ErrorNote error={list.error} />
      <ListTable
        list={list}
        rows={rows}
        empty={t('applications_empty')}
        columns={[
          { label: t('col_created_at') },
          { label: t('col_member') },
          { label: t('applications_col_contact') },
          { label: t('applications_col_audience') },
          { label: t('col_status') },
          // Decided tabs have no action: an empty column pinned on phones covered the contact.
          ...(canAct && status === 'pending' ? [{ label: t('col_actions'), className: 'ops-table__actions' }] : []),
        ]}
        row={(a) => (
          <tr key={a.id} data-testid={`ops-application-row-${a.id}`} data-status={a.status}>
            <td className="nowrap">{formatDateTime(a.createdAt)}</td>
            <td>
              <span className="strong">{a.account}</span>
              <span className="ops-sub">#{a.memberId}</span>
            </td>
            <td>
              <span className="ops-wrap">{a.contactName}</span>
              <span className="ops-sub ops-wrap">{a.contact}</span>
            </td>
            <td className="ops-details">
              <span className="ops-sub">{t(`application_channel_${a.channel}`)}</span>
              <span className="ops-wrap">{a.audience}</span>
            </td>
            <td>
              <StatusChip tone={TONE[a.status]}>{t(`application_status_${a.status}`)}</StatusChip>
              {a.reason && <span className="ops-sub ops-wrap">{a.reason}</span>}
              {a.decidedAt && <span className="ops-sub">{t('applications_decided_by', { at: formatDateTime(a.decidedAt), by: a.decidedBy ?? '—' })}</span>}
            </td>
            {canAct && status === 'pending' && <td className="ops-table__actions">
              {a.status === 'pending' && (
                <div className="ops-row-actions">
                  <button type="button" className="ops-btn ops-btn--sm ops-btn--primary" onClick={() => { setFlash(''); setDeciding({ app: a, approve: true }); }} data-testid={`ops-application-approve-${a.id}`}>
                    {t('applications_approve')}
                  </button>
                  <button type="button" className="ops-btn ops-btn--sm" onClick={() => { setFlash(''); setDeciding({ app: a, approve: false }); }} data-testid={`ops-application-reject-${a.id}`}>
                    {t('applications_reject')}
                  </button>
                </div>
              )}
            </td>}
          </tr>
        )}
      />
      {list.data && <Pager pageNo={pageNo} pageSize={PAGE_SIZE} total={list.data.total} onPage={setPageNo} testPrefix="ops-applications-pager" />}
      {deciding && (
        <DecideDialog
          app={deciding.app}
          approve={deciding.approve}
          onClose={() => setDeciding(null)}
          onDone={(a) => {
            setDeciding(null);
            setFlash(t('flash_application', { account: a.account, status: t(`application_status_${a.status}`) }));
          }}
        />
      )}
    </section>
  );
}

/** Approve (the player becomes a top agent), or reject with a reason the player is shown. */
function DecideDialog({ app, approve, onClose, onDone }: { app: TOpsAgentApplication; approve: boolean; onClose: () => void; onDone: (a: TOpsAgentApplication) => void }) {
  const { t } = useTranslation('ops');
  const decide = useDecideApplication();
  const [reason, setReason] = useState('');
  const [isTried, setTried] = useState(false);
  const isReasonMissing = !approve && reason.trim().length < 3;
  const busy = decide.isPending;
  return (
    <Modal name="opsApplicationModal" open onClose={busy ? () => undefined : onClose} title={t(approve ? 'applications_approve_title' : 'applications_reject_title', { account: app.account })} width={460} className="ops-dialog">
      <form
        className="ops-dialog__form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setTried(true);
          decide.reset();
          if (isReasonMissing || busy) return;
          decide.mutate({ id: app.id, body: { approve, reason: reason.trim() } }, { onSuccess: onDone });
        }}
      >
        <p className="ops-muted">{t(approve ? 'applications_approve_note' : 'applications_reject_note')}</p>
        <label className={`ops-field${isTried && isReasonMissing ? ' is-invalid' : ''}`}>
          <span className="ops-field__label">{t(approve ? 'applications_note_optional' : 'field_reason')}{!approve && <span className="ops-field__req" aria-hidden="true">*</span>}</span>
          <textarea className="ops-input ops-input--area" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={AGENT_APPLICATION_LIMITS.reason} required={!approve}
            aria-invalid={isTried && isReasonMissing ? true : undefined} data-testid="ops-application-reason" />
          {isTried && isReasonMissing && <span className="ops-field__hint ops-field__hint--problem" role="alert">{t('applications_reason_required')}</span>}
        </label>
        <ErrorNote error={decide.error} />
        <div className="ops-dialog__actions">
          <button type="button" className="ops-btn ops-btn--ghost" onClick={onClose} disabled={busy}>{t('cancel')}</button>
          <button type="submit" className={`ops-btn ${approve ? 'ops-btn--primary' : 'ops-btn--danger'}`} disabled={busy} data-testid="ops-application-confirm">
            {t(approve ? 'applications_approve' : 'applications_reject')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
