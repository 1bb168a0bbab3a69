import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useAmount } from '../../../lib/use-money';
import { errorKey } from '../../../lib/error-key';
import { isApiError, type ApiErrorDetail } from '../../../lib/api';
import { lastPage } from '../lib/format';
import './ops.css';
import { useUniqueId } from '../../../lib/unique-id';

export type ChipTone = 'warn' | 'info' | 'success' | 'danger' | 'muted';

export function StatusChip({ tone, children, testId }: { tone: ChipTone; children: ReactNode; testId?: string }) {
  return (
    <span className={`ops-chip ops-chip--${tone}`} data-testid={testId}>
      {children}
    </span>
  );
}

/** Minor units as major units with the merchant's decimals (1,000.50 pesos; 1,000 đồng), right-aligned by the table cell's class. */
export function Money({ minor }: { minor: number | null | undefined }) {
  const amount = useAmount();
  return <>{minor === null || minor === undefined ? '—' : amount(minor)}</>;
}

/** A failed call, translated (codes of the contracts in namespace common). */
/**
 * Server problem texts the console knows, in its own language (the restricted-list import's line
 * problems, a NUL character, the content forms' rules); any other detail is said by the rule the server
 * names (`rule`: a size, a kind, a format), else as the server wrote it. The field is the API's name.
 */
const KNOWN_DETAILS: Array<[RegExp, string]> = [
  [/^expected 3 or 4 columns/, 'detail_csv_columns'],
  [/^full_name is empty or too long$/, 'detail_csv_name'],
  [/^birth_date must be a date written YYYY-MM-DD$/, 'detail_csv_birth'],
  [/^category must be one of (.+)$/, 'detail_csv_category'],
  [/^id_number is too long$/, 'detail_csv_id'],
  [/^no rows$/, 'detail_csv_empty'],
  [/^Must not contain the NUL character/, 'detail_nul'],
  [/^Unknown accounts: (.+)$/, 'detail_unknown_accounts'],
  // The content forms' rules (contracts api/ops-content.ts).
  [/^The end must be after the start$/, 'detail_end_after_start'],
  [/^A link needs its type and target$/, 'detail_link_type_target'],
  [/^A route starts with \/ and names a page of this site$/, 'detail_route'],
  [/^Accounts go with the accounts segment only$/, 'detail_accounts_segment'],
  [/^EN and TY title and content are required$/, 'detail_en_ty_texts'],
  [/^EN title and body are required$/, 'detail_en_title_body'],
  [/^EN title and content are required$/, 'detail_en_title_content'],
  [/^External links are https$/, 'detail_https'],
  [/^Popups \(and only popups\) have an execution$/, 'detail_popup_execution'],
  [/^TY title and body are required to publish$/, 'detail_ty_title_body_publish'],
  [/^TY title and content are required to publish$/, 'detail_ty_title_content_publish'],
  [/^TY title and content are required$/, 'detail_ty_title_content'],
  [/^TY title is required to publish$/, 'detail_ty_title_publish'],
];
export function detailText(t: (key: string, o?: Record<string, unknown>) => string, d: ApiErrorDetail): { path: string; message: string } {
  const line = /^line (\d+)$/.exec(d.path);
  // A language's whole block ('ty': "TY title and content are required to publish") is named by its
  // message; the API's key was shown raw in front of it ("ty: kailangan ang pamagat ...").
  const path = line ? t('detail_line', { n: Number(line[1]) }) : /^(en|ty)$/i.test(d.path) ? '' : d.path;
  for (const [re, key] of KNOWN_DETAILS) {
    const m = re.exec(d.message);
    if (m) return { path, message: t(key, { list: m[1] ?? '' }) };
  }
  const rule = ruleKey(d);
  return { path, message: rule ? t(rule.key, { n: rule.n }) : d.message };
}

/** The console's wording of a rule the server named (ZErrorDetail): a text's or a list's size, a kind, a format. */
function ruleKey(d: ApiErrorDetail): { key: string; n?: number } | null {
  switch (d.rule) {
    case 'min':
    case 'max': {
      const sized = (d.of === 'string' || d.of === 'array') && d.limit !== undefined;
      if (!sized) return { key: `detail_rule_${d.rule}` };
      if (d.rule === 'min' && d.limit === 1) return { key: 'detail_rule_required' };
      return { key: `detail_rule_${d.rule}_${d.of}`, n: d.limit };
    }
    case undefined:
      return null;
    default:
      return { key: `detail_rule_${d.rule}` };
  }
}

export function ErrorNote({ error, testId = 'ops-error' }: { error: unknown; testId?: string }) {
  const { t } = useTranslation('ops');
  if (!error) return null;
  // The server names the field and the rule it broke ("endAt: The end is after the start"): shown as it
  // says it (field names are the API's), so the operator knows what to mend, not only "invalid input".
  const details = isApiError(error) ? error.details : [];
  return (
    <p className="ops-note ops-note--error" role="alert" data-testid={testId}>
      {t(`common:${errorKey(error)}`)}
      {details.map((raw, i) => {
        const d = detailText(t, raw);
        return (
          <span key={i} className="ops-note__detail" data-testid={`${testId}-detail`}>
            <br />
            {d.path ? <code>{d.path}</code> : null}
            {d.path ? ': ' : ''}
            {d.message}
          </span>
        );
      })}
    </p>
  );
}

export function SuccessNote({ children, testId = 'ops-flash' }: { children: ReactNode; testId?: string }) {
  if (!children) return null;
  return (
    <p className="ops-note ops-note--success" role="status" data-testid={testId}>
      {children}
    </p>
  );
}

/** Segmented tabs (role=tablist); each tab has data-testid `${testPrefix}-${value}`. */
export function Tabs<T extends string>({ value, options, onChange, label, testPrefix, counts }: {
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (v: T) => void;
  label: string;
  testPrefix: string;
  counts?: Partial<Record<T, number>>;
}) {
  return (
    <div className="ops-tabs" role="tablist" aria-label={label}>
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          role="tab"
          aria-selected={o.value === value}
          className={`ops-tab${o.value === value ? ' is-active' : ''}`}
          onClick={() => onChange(o.value)}
          data-testid={`${testPrefix}-${o.value}`}
        >
          {o.label}
          {counts?.[o.value] !== undefined && <span className="ops-tab__count">{counts[o.value]}</span>}
        </button>
      ))}
    </div>
  );
}

export function Pager({ pageNo, pageSize, total, onPage, testPrefix }: { pageNo: number; pageSize: number; total: number; onPage: (n: number) => void; testPrefix: string }) {
  const { t } = useTranslation('ops');
  const last = lastPage(total, pageSize);
  return (
    <div className="ops-pager">
      <span className="ops-muted" data-testid={`${testPrefix}-total`}>
        {t('pager_summary', { page: pageNo, pages: last, count: total })}
      </span>
      <button type="button" className="ops-btn" disabled={pageNo <= 1} onClick={() => onPage(pageNo - 1)} data-testid={`${testPrefix}-prev`}>
        {t('pager_prev')}
      </button>
      <button type="button" className="ops-btn" disabled={pageNo >= last} onClick={() => onPage(pageNo + 1)} data-testid={`${testPrefix}-next`}>
        {t('pager_next')}
      </button>
    </div>
  );
}

/** A labelled input for the back office, with a stable data-testid on the input. */
export function OpsField({ label, value, onChange, testId, type = 'text', required, autoComplete, inputMode, placeholder, disabled, hint, invalid, problem, multiline, maxLength }: {
  label: ReactNode;
  value: string;
  onChange: (v: string) => void;
  testId: string;
  type?: 'text' | 'password';
  required?: boolean;
  autoComplete?: string;
  inputMode?: 'decimal' | 'numeric' | 'text';
  placeholder?: string;
  disabled?: boolean;
  hint?: ReactNode;
  invalid?: boolean;
  /** What is wrong, said under the field in place of the hint while it is invalid (a red box alone said nothing). */
  problem?: ReactNode;
  multiline?: boolean;
  maxLength?: number;
}) {
  const id = useUniqueId('ops-field');
  const common = {
    id,
    value,
    required,
    disabled,
    placeholder,
    maxLength,
    'aria-invalid': invalid || undefined,
    'data-testid': testId,
  };
  return (
    <div className={`ops-field${invalid ? ' is-invalid' : ''}`}>
      <label htmlFor={id} className="ops-field__label">
        {label}
        {required && <span className="ops-field__req" aria-hidden="true">*</span>}
      </label>
      {multiline ? (
        <textarea {...common} className="ops-input ops-input--area" rows={3} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input {...common} className="ops-input" type={type} autoComplete={autoComplete} inputMode={inputMode} onChange={(e) => onChange(e.target.value)} />
      )}
      {(invalid && problem ? problem : hint) && <span className="ops-field__hint">{invalid && problem ? problem : hint}</span>}
    </div>
  );
}

/** A table inside its scroll box: wide tables scroll sideways on small screens. */
export function TableBox({ children, busy }: { children: ReactNode; busy?: boolean }) {
  return (
    <div className={`ops-table-wrap${busy ? ' is-busy' : ''}`} aria-busy={busy || undefined}>
      <table className="ops-table">{children}</table>
    </div>
  );
}

export function EmptyRow({ cols, children }: { cols: number; children: ReactNode }) {
  return (
    <tr className="ops-table__empty">
      <td colSpan={cols} data-testid="ops-empty">
        {children}
      </td>
    </tr>
  );
}

/**
 * The row of a list's table while it shows no rows: Loading until the first answer; '—' when the list
 * could not be read (no access, an error: said above it), which is not "nothing found"; else `empty`.
 */
export function ListEmptyRow({ list, cols, empty }: { list: { isPending: boolean; isError?: boolean }; cols: number; empty: ReactNode }) {
  const { t } = useTranslation('ops');
  return <EmptyRow cols={cols}>{list.isPending ? t('loading') : list.isError ? '—' : empty}</EmptyRow>;
}

/** A column of a ListTable: its heading and the class of its heading cell (`num`, `ops-table__actions`). */
export type ListColumn = { label: ReactNode; className?: string };

/**
 * A list page's table over its query: the column headings, then a loading row until the first answer,
 * the `empty` text when there are no rows, else a row each (`row` returns the keyed <tr>); dimmed while a
 * later fetch runs.
 */
export function ListTable<R>({ list, rows, empty, columns, row }: {
  list: { isPending: boolean; isFetching: boolean; isError?: boolean };
  rows: readonly R[];
  empty: ReactNode;
  columns: readonly ListColumn[];
  row: (r: R) => ReactNode;
}) {
  const { t } = useTranslation('ops');
  return (
    <TableBox busy={list.isFetching && !list.isPending}>
      <thead>
        <tr>
          {columns.map((c, i) => (
            <th key={i} className={c.className}>{c.label}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {list.isPending || rows.length === 0 ? (
          <ListEmptyRow list={list} cols={columns.length} empty={empty} />
        ) : (
          rows.map((r) => row(r))
        )}
      </tbody>
    </TableBox>
  );
}

export function PageHead({ title, children }: { title: ReactNode; children?: ReactNode }) {
  return (
    <div className="ops-page-head">
      <h1 className="ops-page-title">{title}</h1>
      <div className="ops-page-head__tools">{children}</div>
    </div>
  );
}
