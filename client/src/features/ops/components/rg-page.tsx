import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RG_FAMILY_RELATIONSHIPS, RG_OPERATOR_DURATIONS, RG_RESTRICTED_CATEGORIES, RG_RESTRICTED_MAX_CSV, ZRgFamilyRequestBody, type TRgFamilyRequestRow } from '@portal/contracts/api/rg';
import { schemaOf } from '../../../lib/lazy-schema';
import { useCreateFamilyRequest, useDecideFamilyRequest, useFamilyRequests, useImportRestricted, useRestrictedMatches, useRestrictedSummary, type FamilyStatus } from '../api/rg';
import { useOpsTime } from '../lib/format';
import { useOpsCan } from './ops-gate';
import { EmptyRow, ErrorNote, OpsField, PageHead, Pager, StatusChip, SuccessNote, TableBox, Tabs } from './ops-ui';

type Duration = (typeof RG_OPERATOR_DURATIONS)[number];

/**
 * /ops/rg: responsible gaming for operators. The restricted-persons list (CSV import replaces it; a
 * job then re-checks every member and excludes the matches, listed here), and family exclusion
 * requests (support files them for callers; risk approves with a duration, or rejects).
 */
export function RgPage() {
  const { t } = useTranslation('ops');
  return (
    <section className="ops-page" data-testid="ops-rg-page">
      <PageHead title={t('nav_rg')} />
      <RestrictedPanel />
      <FamilyPanel />
    </section>
  );
}

function RestrictedPanel() {
  const formatDateTime = useOpsTime();
  const { t } = useTranslation('ops');
  const canImport = useOpsCan('rg.restricted.import');
  const summary = useRestrictedSummary();
  const importer = useImportRestricted();
  const [page, setPage] = useState(1);
  const matches = useRestrictedMatches(page);
  const [fileError, setFileError] = useState<string | null>(null);
  const cur = summary.data?.current ?? null;
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > RG_RESTRICTED_MAX_CSV) return setFileError(t('rg_file_too_big'));
    setFileError(null);
    importer.mutate(await file.text());
  };
  return (
    <>
      <div className="ops-panel">
        <h2 className="ops-panel__title">{t('rg_restricted_title')}</h2>
        <p className="ops-muted">{t('rg_restricted_help')}</p>
        <ErrorNote error={summary.error} testId="ops-rg-summary-error" />
        <dl className="ops-kv" data-testid="ops-rg-summary">
          <dt>{t('rg_list_size')}</dt>
          <dd data-testid="ops-rg-list-size">{cur ? cur.rows : t('rg_no_list')}</dd>
          {RG_RESTRICTED_CATEGORIES.flatMap((c) => [
            <dt key={`${c}-t`}>{t(`rg_cat_${c}`)}</dt>,
            <dd key={`${c}-d`}>{summary.data?.byCategory[c] ?? 0}</dd>,
          ])}
          {cur && (
            <>
              <dt>{t('rg_imported')}</dt>
              <dd>{formatDateTime(cur.importedAt)} · {cur.importedBy}</dd>
              <dt>{t('rg_rechecked')}</dt>
              <dd data-testid="ops-rg-rechecked">
                {cur.checkedAt ? t('rg_rechecked_at', { when: formatDateTime(cur.checkedAt), n: cur.matched ?? 0 }) : t('rg_recheck_pending')}
                {cur.checkedAt && (cur.lifted ?? 0) > 0 && <> · <span data-testid="ops-rg-lifted-count">{t('rg_rechecked_lifted', { n: cur.lifted })}</span></>}
              </dd>
            </>
          )}
        </dl>
        {canImport ? (
          <label className="ops-field">
            <span className="ops-field__label">{t('rg_import_file')}</span>
            <input type="file" accept=".csv,text/csv" disabled={importer.isPending} onChange={(e) => { void onFile(e.target.files?.[0]); e.target.value = ''; }} data-testid="ops-rg-import" />
            <span className="ops-field__hint">{t('rg_import_hint')}</span>
          </label>
        ) : <p className="ops-note ops-note--info">{t('rg_import_risk_only')}</p>}
        {fileError && <p className="ops-note ops-note--error" role="alert">{fileError}</p>}
        <ErrorNote error={importer.error} testId="ops-rg-import-error" />
        {importer.data && <SuccessNote testId="ops-rg-imported">{t('rg_import_done', { n: importer.data.rows })}</SuccessNote>}
      </div>
      <div className="ops-panel">
        <h2 className="ops-panel__title">{t('rg_matches_title')}</h2>
        <ErrorNote error={matches.error} testId="ops-rg-matches-error" />
        <TableBox busy={matches.isFetching}>
          <thead><tr><th>{t('col_member')}</th><th>{t('rg_category')}</th><th>{t('rg_matched_at')}</th><th>{t('col_status')}</th></tr></thead>
          <tbody>
            {(matches.data?.list ?? []).length === 0 && <EmptyRow cols={4}>{matches.isPending ? t('loading') : t('rg_no_matches')}</EmptyRow>}
            {(matches.data?.list ?? []).map((m) => (
              <tr key={m.id} data-testid={`ops-rg-match-${m.memberId}`}>
                <td className="strong">{m.account} <span className="mono ops-muted">#{m.memberId}</span></td>
                <td>{t(`rg_cat_${m.category}`)}</td>
                <td>{formatDateTime(m.matchedAt)}</td>
                <td>
                  {m.excluded ? <StatusChip tone="danger">{t('rg_excluded')}</StatusChip> : <StatusChip tone="muted">{t('rg_lifted')}</StatusChip>}
                  {m.lift && (
                    <span className="ops-muted" data-testid={`ops-rg-match-lift-${m.id}`}>
                      {' '}{m.lift.by === 'list' ? t('rg_lifted_by_list', { when: formatDateTime(m.lift.at), id: m.lift.importId }) : t('rg_lifted_by_operator', { when: formatDateTime(m.lift.at) })}
                    </span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </TableBox>
        {matches.data && <Pager pageNo={matches.data.pageNo} pageSize={matches.data.pageSize} total={matches.data.total} onPage={setPage} testPrefix="ops-rg-matches" />}
      </div>
    </>
  );
}

const EMPTY_REQUEST = { playerAccount: '', requesterName: '', relationship: 'spouse' as (typeof RG_FAMILY_RELATIONSHIPS)[number], requesterContact: '', reason: '' };

function FamilyPanel() {
  const { t } = useTranslation('ops');
  const canFile = useOpsCan('rg.family.request');
  const [status, setStatus] = useState<FamilyStatus | ''>('pending');
  const [page, setPage] = useState(1);
  const list = useFamilyRequests(status, page);
  const create = useCreateFamilyRequest();
  const [form, setForm] = useState(EMPTY_REQUEST);
  const [invalid, setInvalid] = useState(false);
  const set = (k: keyof typeof form) => (v: string) => setForm((f) => ({ ...f, [k]: v }));
  return (
    <div className="ops-panel">
      <h2 className="ops-panel__title">{t('rg_family_title')}</h2>
      <p className="ops-muted">{t('rg_family_help')}</p>
      <Tabs value={status} onChange={(v) => { setStatus(v); setPage(1); }} label={t('col_status')} testPrefix="ops-rg-family-tab"
        options={[{ value: 'pending', label: t('rg_status_pending') }, { value: 'approved', label: t('rg_status_approved') }, { value: 'rejected', label: t('rg_status_rejected') }, { value: '', label: t('rg_status_all') }]} />
      <ErrorNote error={list.error} testId="ops-rg-family-error" />
      <TableBox busy={list.isFetching}>
        <thead><tr><th>{t('rg_reference')}</th><th>{t('col_member')}</th><th>{t('rg_requester')}</th><th>{t('rg_reason')}</th><th>{t('col_status')}</th><th className="ops-table__actions">{t('col_actions')}</th></tr></thead>
        <tbody>
          {(list.data?.list ?? []).length === 0 && <EmptyRow cols={6}>{list.isPending ? t('loading') : t('rg_no_requests')}</EmptyRow>}
          {(list.data?.list ?? []).map((r) => <FamilyRow key={r.id} r={r} />)}
        </tbody>
      </TableBox>
      {list.data && <Pager pageNo={list.data.pageNo} pageSize={list.data.pageSize} total={list.data.total} onPage={setPage} testPrefix="ops-rg-family" />}
      {canFile && (
        <form className="ops-form" noValidate data-testid="ops-rg-family-form" onSubmit={(e) => {
          e.preventDefault();
          // The built client ships contract schemas as lazy handles (lib/lazy-schema.ts): load it first.
          void schemaOf(ZRgFamilyRequestBody).then((schema) => {
            const b = schema.safeParse(form);
            setInvalid(!b.success);
            if (b.success) create.mutate(b.data, { onSuccess: () => setForm(EMPTY_REQUEST) });
          });
        }}>
          <h3 className="ops-panel__title">{t('rg_family_file')}</h3>
          <OpsField label={t('rg_player_account')} value={form.playerAccount} onChange={set('playerAccount')} testId="ops-rg-family-player" maxLength={64} />
          <OpsField label={t('rg_requester_name')} value={form.requesterName} onChange={set('requesterName')} testId="ops-rg-family-name" maxLength={100} />
          <label className="ops-field">
            <span className="ops-field__label">{t('rg_relationship')}</span>
            <select className="ops-input" value={form.relationship} onChange={(e) => set('relationship')(e.target.value)} data-testid="ops-rg-family-relationship">
              {RG_FAMILY_RELATIONSHIPS.map((r) => <option key={r} value={r}>{t(`rg_rel_${r}`)}</option>)}
            </select>
          </label>
          <OpsField label={t('rg_requester_contact')} value={form.requesterContact} onChange={set('requesterContact')} testId="ops-rg-family-contact" maxLength={100} />
          <OpsField label={t('rg_reason')} value={form.reason} onChange={set('reason')} testId="ops-rg-family-reason" multiline maxLength={1000} hint={t('rg_reason_hint')} />
          {invalid && <p className="ops-note ops-note--error" role="alert">{t('rg_family_invalid')}</p>}
          <ErrorNote error={create.error} testId="ops-rg-family-create-error" />
          {create.data && <SuccessNote testId="ops-rg-family-created">{t('rg_family_created', { reference: create.data.reference })}</SuccessNote>}
          <div className="ops-form__actions">
            <button type="submit" className="ops-btn ops-btn--primary" disabled={create.isPending} data-testid="ops-rg-family-submit">{t('rg_family_submit')}</button>
          </div>
        </form>
      )}
    </div>
  );
}

function FamilyRow({ r }: { r: TRgFamilyRequestRow }) {
  const formatDateTime = useOpsTime();
  const { t } = useTranslation('ops');
  const canDecide = useOpsCan('rg.family.decide');
  const decide = useDecideFamilyRequest();
  const [duration, setDuration] = useState<Duration | ''>('1y');
  const [note, setNote] = useState('');
  const noteOk = note.trim().length >= 2;
  return (
    <tr data-testid={`ops-rg-family-${r.id}`}>
      <td className="mono">{r.reference}<br /><span className="ops-muted">{formatDateTime(r.createdAt)}</span></td>
      <td className="strong">{r.account ?? <span className="ops-muted">{t('rg_no_account', { account: r.playerAccount })}</span>}</td>
      <td>{r.requesterName} · {t(`rg_rel_${r.relationship}`)}<br /><span className="ops-muted">{r.requesterContact} · {t(`rg_source_${r.source}`)}</span></td>
      <td className="ops-wrap">{r.reason}</td>
      <td>
        <StatusChip tone={r.status === 'pending' ? 'warn' : r.status === 'approved' ? 'success' : 'muted'}>{t(`rg_status_${r.status}`)}</StatusChip>
        {r.decidedBy && <><br /><span className="ops-muted">{r.decidedBy}{r.duration ? ` · ${r.duration === 'open' ? t('rg_dur_open') : t(`rg_dur_${r.duration}`)}` : ''}</span></>}
      </td>
      <td className="ops-table__actions">
        {r.status === 'pending' && canDecide ? (
          <div className="ops-row-actions">
            <select className="ops-input" aria-label={t('rg_duration')} value={duration} onChange={(e) => setDuration(e.target.value as Duration | '')} data-testid={`ops-rg-family-duration-${r.id}`}>
              {RG_OPERATOR_DURATIONS.map((d) => <option key={d} value={d}>{t(`rg_dur_${d}`)}</option>)}
              <option value="">{t('rg_dur_open')}</option>
            </select>
            <input className="ops-input" aria-label={t('rg_note')} placeholder={t('rg_note')} value={note} maxLength={500} onChange={(e) => setNote(e.target.value)} data-testid={`ops-rg-family-note-${r.id}`} />
            <button type="button" className="ops-btn ops-btn--primary" disabled={!noteOk || decide.isPending || r.memberId === null}
              onClick={() => decide.mutate({ id: r.id, body: { decision: 'approve', duration: duration || null, note: note.trim() } })} data-testid={`ops-rg-family-approve-${r.id}`}>{t('rg_approve')}</button>
            <button type="button" className="ops-btn" disabled={!noteOk || decide.isPending}
              onClick={() => decide.mutate({ id: r.id, body: { decision: 'reject', note: note.trim() } })} data-testid={`ops-rg-family-reject-${r.id}`}>{t('rg_reject')}</button>
            <ErrorNote error={decide.error} testId={`ops-rg-family-decide-error-${r.id}`} />
          </div>
        ) : r.decisionNote ? <span className="ops-muted">{r.decisionNote}</span> : '—'}
      </td>
    </tr>
  );
}
