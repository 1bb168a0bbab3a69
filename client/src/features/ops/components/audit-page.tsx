import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FIRST_DAY } from '@portal/contracts/api/instant';
import { opsCalls } from '@portal/contracts/api/ops';
import { auditQueryOf, useOpsAudit, type AuditFilter } from '../api/get-audit';
import { useBrandOffset } from '../../../lib/whitelabel';
import { fetchOpsBlob } from '../lib/ops-api';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES, auditActionKey, auditFieldKey, auditFields, auditTargetLabelKey, auditValueKey } from '../lib/audit-format';
import { useOpsTime } from '../lib/format';
import { useCurrency } from '../../../lib/use-money';
import { ErrorNote, ListTable, PageHead, Pager } from './ops-ui';

const PAGE_SIZE = 50;

function StateCell({ side, other, targetType, testId }: { side: unknown; other: unknown; targetType: string; testId: string }) {
  const formatTime = useOpsTime();
  const { t } = useTranslation('ops');
  // Field names and statuses in the console's language where it has them (they read as the API's in TY).
  const fields = auditFields(side, other, useCurrency().exponent, formatTime).map((f) => {
    const keyLabel = f.key ? auditFieldKey(f.key) : null;
    const say = (value: string) => {
      const valueLabel = auditValueKey(value, f.key, targetType);
      return valueLabel ? t(valueLabel, { defaultValue: value }) : value;
    };
    // A list (an operator's roles) reads as words, not as JSON.
    const value = f.items ? (f.items.length > 0 ? f.items.map(say).join(', ') : '—') : say(f.value);
    return { ...f, key: keyLabel ? t(keyLabel, { defaultValue: f.key }) : f.key, value };
  });
  if (fields.length === 0) return <span className="ops-muted">—</span>;
  // What the action changed stands out; the rest stays one muted line (the full state on hover).
  const changed = fields.filter((f) => f.changed);
  const rest = fields.filter((f) => !f.changed);
  return (
    <div data-testid={testId} title={JSON.stringify(side)}>
      {changed.length > 0 && (
        <dl className="ops-kv ops-kv--inline">
          {changed.map((f) => (
            <div key={f.key} className="ops-kv__pair is-changed">
              {f.key && <dt>{f.key}</dt>}
              <dd>{f.value}</dd>
            </div>
          ))}
        </dl>
      )}
      {rest.length > 0 && <p className="ops-kv__rest">{rest.map((f) => (f.key ? `${f.key}: ${f.value}` : f.value)).join(' · ')}</p>}
    </div>
  );
}

/** The target's id; a refused call's target (a permission) by its name, with its key on hover. */
function TargetId({ type, id }: { type: string; id: string }) {
  const { t } = useTranslation('ops');
  const labelKey = auditTargetLabelKey(type, id);
  // "Action: View deposits" (the two ran together as "Action View deposits")
  if (labelKey) return <span title={id} data-testid="ops-audit-target-permission">: {t(labelKey, { defaultValue: id })}</span>;
  return <span className="mono">#{id}</span>;
}

/** /ops/audit: the append-only trail, newest first, filterable by action, target type and id. */
export function AuditPage() {
  const formatDateTime = useOpsTime();
  const { t } = useTranslation('ops');
  const offset = useBrandOffset();
  const [filter, setFilter] = useState<AuditFilter>({ action: '', targetType: '', targetId: '', actor: '', fromDay: '', toDay: '', pageNo: 1, pageSize: PAGE_SIZE });
  const [targetIdInput, setTargetIdInput] = useState('');
  const [actorInput, setActorInput] = useState('');
  const [exportError, setExportError] = useState<unknown>(null);
  const [isExporting, setExporting] = useState(false);
  const exportCsv = async () => {
    setExporting(true);
    setExportError(null);
    try {
      const q = Object.fromEntries(Object.entries(auditQueryOf(filter, offset)).filter(([, v]) => v !== undefined)) as Record<string, string>;
      const blob = await fetchOpsBlob(opsCalls.auditExportPath, {}, undefined, q);
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = 'audit.csv';
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (e) {
      setExportError(e);
    } finally {
      setExporting(false);
    }
  };
  const list = useOpsAudit(filter);
  const set = (patch: Partial<AuditFilter>) => setFilter((f) => ({ ...f, pageNo: 1, ...patch }));
  const rows = list.data?.list ?? [];
  const actionLabel = (a: string) => t(auditActionKey(a), { defaultValue: a });

  return (
    <section className="ops-page" data-testid="ops-audit-page">
      <PageHead title={t('nav_audit')} />
      <form
        className="ops-filters"
        onSubmit={(e) => {
          e.preventDefault();
          set({ targetId: targetIdInput.trim(), actor: actorInput.trim() });
        }}
      >
        <label className="ops-filter">
          <span className="ops-field__label">{t('col_action')}</span>
          <select className="ops-input" value={filter.action} onChange={(e) => set({ action: e.target.value })} data-testid="ops-audit-filter-action">
            <option value="">{t('filter_all')}</option>
            {AUDIT_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {actionLabel(a)}
              </option>
            ))}
          </select>
        </label>
        <label className="ops-filter">
          <span className="ops-field__label">{t('col_target_type')}</span>
          <select className="ops-input" value={filter.targetType} onChange={(e) => set({ targetType: e.target.value })} data-testid="ops-audit-filter-target-type">
            <option value="">{t('filter_all')}</option>
            {AUDIT_TARGET_TYPES.map((tt) => (
              <option key={tt} value={tt}>
                {t(`target_${tt}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="ops-filter">
          <span className="ops-field__label">{t('col_target_id')}</span>
          <input className="ops-input" value={targetIdInput} onChange={(e) => setTargetIdInput(e.target.value)} maxLength={64} data-testid="ops-audit-filter-target-id" />
        </label>
        <label className="ops-filter">
          <span className="ops-field__label">{t('col_operator')}</span>
          <input className="ops-input" value={actorInput} onChange={(e) => setActorInput(e.target.value)} maxLength={32} data-testid="ops-audit-filter-actor" />
        </label>
        <DayFilter label={t('audit_from')} value={filter.fromDay} min={FIRST_DAY} onChange={(fromDay) => set({ fromDay })} testId="ops-audit-filter-from" />
        <DayFilter label={t('audit_to')} value={filter.toDay} min={filter.fromDay || FIRST_DAY} onChange={(toDay) => set({ toDay })} testId="ops-audit-filter-to" />
        <button type="submit" className="ops-btn" data-testid="ops-audit-filter-apply">
          {t('filter_apply')}
        </button>
        <button
          type="button"
          className="ops-btn ops-btn--ghost"
          data-testid="ops-audit-filter-clear"
          onClick={() => {
            setTargetIdInput('');
            setActorInput('');
            set({ action: '', targetType: '', targetId: '', actor: '', fromDay: '', toDay: '' });
          }}
        >
          {t('filter_clear')}
        </button>
        <button type="button" className="ops-btn" disabled={isExporting} onClick={() => void exportCsv()} data-testid="ops-audit-export">
          {isExporting ? t('working') : t('audit_export')}
        </button>
      </form>
      <ErrorNote error={exportError} testId="ops-audit-export-error" />
      <ErrorNote error={list.error} testId="ops-audit-error" />
      <ListTable
        list={list}
        rows={rows}
        empty={t('empty_audit')}
        columns={[
          { label: t('col_time') },
          { label: t('col_operator') },
          { label: t('col_action') },
          { label: t('col_target') },
          { label: t('col_before') },
          { label: t('col_after') },
        ]}
        row={(a) => (
          <tr key={a.id} data-testid="ops-audit-row" data-audit-id={a.id} data-action={a.action}>
            <td className="nowrap">{formatDateTime(a.at)}</td>
            <td className="strong">{a.operator}</td>
            <td>
              <span className="ops-code" title={a.action}>
                {actionLabel(a.action)}
              </span>
            </td>
            <td className="nowrap">
              {t(`target_${a.targetType}`, { defaultValue: a.targetType })}
              {auditTargetLabelKey(a.targetType, a.targetId) ? '' : ' '}
              <TargetId type={a.targetType} id={a.targetId} />
            </td>
            <td className="ops-details">
              <StateCell side={a.before} other={a.after} targetType={a.targetType} testId={`ops-audit-before-${a.id}`} />
            </td>
            <td className="ops-details">
              <StateCell side={a.after} other={a.before} targetType={a.targetType} testId={`ops-audit-after-${a.id}`} />
            </td>
          </tr>
        )}
      />
      {list.data && <Pager pageNo={filter.pageNo} pageSize={PAGE_SIZE} total={list.data.total} onPage={(n) => setFilter((f) => ({ ...f, pageNo: n }))} testPrefix="ops-audit-pager" />}
    </section>
  );
}

/** A day of the filter; one before 2000 (0026 typed for 2026) is said at the field and not searched. */
function DayFilter({ label, value, min, onChange, testId }: { label: string; value: string; min: string; onChange: (v: string) => void; testId: string }) {
  const { t } = useTranslation('ops');
  const isTooEarly = value !== '' && value < FIRST_DAY;
  return (
    <label className={`ops-filter${isTooEarly ? ' is-invalid' : ''}`}>
      <span className="ops-field__label">{label}</span>
      <input type="date" className="ops-input" value={value} min={min} aria-invalid={isTooEarly ? true : undefined} onChange={(e) => onChange(e.target.value)} data-testid={testId} />
      {isTooEarly && <span className="ops-field__hint" role="alert" data-testid={`${testId}-problem`}>{t('content_year_from_2000')}</span>}
    </label>
  );
}
