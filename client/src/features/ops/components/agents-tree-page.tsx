import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import type { z } from 'zod';
import type { ZOpsLiveContract, TOpsTreeRow } from '@portal/contracts/api/ops-agents';
import { useAgentTree, useMakeTopAgent } from '../api/agents';
import { formatRate } from '../lib/agent-terms';
import { ActionDialog } from './action-dialog';
import { useOpsCan } from './ops-gate';
import { EmptyRow, ErrorNote, PageHead, Pager, StatusChip, SuccessNote, TableBox } from './ops-ui';

const PAGE_SIZE = 50;

/** A member's live contracts: kind and rate, the house's marked. */
export function LiveContracts({ list }: { list: readonly z.infer<typeof ZOpsLiveContract>[] }) {
  const { t } = useTranslation('ops');
  if (list.length === 0) return <span className="ops-muted">—</span>;
  return (
    <span className="ops-wrap">
      {list.map((c) => (
        <StatusChip key={c.id} tone={c.house ? 'success' : 'info'} testId={`ops-live-contract-${c.id}`}>
          {t(`contract_kind_${c.kind}`)} {formatRate(c.rate)}
          {c.house ? ` · ${t('agents_house')}` : ''}
        </StatusChip>
      ))}
    </span>
  );
}

const positiveId = (v: string | null) => (v !== null && /^[1-9]\d{0,15}$/.test(v) ? Number(v) : undefined);

/** /ops/agents: the merchant's agent tree: top members, drill down with a breadcrumb, search any account. */
export function AgentsTreePage() {
  const { t } = useTranslation('ops');
  const [params, setParams] = useSearchParams();
  const rootId = positiveId(params.get('rootId'));
  const search = params.get('search')?.trim() || undefined;
  const [pageNo, setPageNo] = useState(1);
  const [searchInput, setSearchInput] = useState(search ?? '');
  useEffect(() => setSearchInput(search ?? ''), [search]);
  const tree = useAgentTree({ pageNo, pageSize: PAGE_SIZE, ...(search ? { search } : rootId ? { rootId } : {}) });
  const v = tree.data;
  const rows = v?.list ?? [];

  const go = (next: Record<string, string>) => {
    setPageNo(1);
    setParams(next);
  };
  const drill = (id: number) => go({ rootId: String(id) });

  return (
    <section className="ops-page" data-testid="ops-agents-page">
      <PageHead title={t('nav_agents')} />
      <form
        className="ops-filters"
        onSubmit={(e) => {
          e.preventDefault();
          go(searchInput.trim() ? { search: searchInput.trim() } : {});
        }}
      >
        <label className="ops-filter ops-filter--wide">
          <span className="ops-field__label">{t('agents_search')}</span>
          <input className="ops-input" value={searchInput} onChange={(e) => setSearchInput(e.target.value)} maxLength={64} placeholder={t('agents_search_hint')} data-testid="ops-agents-search" />
        </label>
        <button type="submit" className="ops-btn" data-testid="ops-agents-search-apply">
          {t('filter_apply')}
        </button>
      </form>

      <nav className="ops-wrap" aria-label={t('agents_breadcrumb')} data-testid="ops-agents-breadcrumb">
        {/* The one way back to the top (it also leaves a search). */}
        <button type="button" className="ops-btn ops-btn--sm ops-btn--link" data-testid="ops-agents-top" onClick={() => go({})}>
          {t('agents_top')}
        </button>
        {search && <span className="ops-muted">› {t('agents_results_for', { text: search })}</span>}
        {!search &&
          (v?.path ?? []).map((p, i, all) => (
            <span key={p.id}>
              ›{' '}
              {i === all.length - 1 ? (
                <span className="strong" data-testid="ops-agents-crumb-current">{p.account}</span>
              ) : (
                <button type="button" className="ops-btn ops-btn--sm ops-btn--link" onClick={() => drill(p.id)} data-testid={`ops-agents-crumb-${p.id}`}>
                  {p.account}
                </button>
              )}
            </span>
          ))}
      </nav>

      {v?.root && !search && <RootSummary root={v.root} />}
      <ErrorNote error={tree.error} testId="ops-agents-error" />
      <TableBox busy={tree.isFetching && !tree.isPending}>
        <thead>
          <tr>
            <th>{t('col_member')}</th>
            <th>{t('agents_col_type')}</th>
            <th>{t('col_status')}</th>
            <th className="num">{t('agents_col_team')}</th>
            <th className="num">{t('agents_col_direct')}</th>
            <th>{t('agents_col_contracts')}</th>
            <th className="ops-table__actions">{t('col_actions')}</th>
          </tr>
        </thead>
        <tbody>
          {tree.isPending ? (
            <EmptyRow cols={7}>{t('loading')}</EmptyRow>
          ) : rows.length === 0 ? (
            <EmptyRow cols={7}>{search ? t('agents_empty_search') : t('agents_empty')}</EmptyRow>
          ) : (
            rows.map((r) => (
              <tr key={r.id} data-testid={`ops-agents-row-${r.id}`}>
                <td>
                  {r.directCount > 0 ? (
                    <button type="button" className="ops-btn ops-btn--sm ops-btn--link strong" onClick={() => drill(r.id)} data-testid={`ops-agents-drill-${r.id}`}>
                      {r.account}
                    </button>
                  ) : (
                    <span className="strong">{r.account}</span>
                  )}
                  <span className="ops-sub">
                    #{r.id}
                    {r.nickname ? ` · ${r.nickname}` : ''}
                  </span>
                  {search && r.path.length > 1 && <span className="ops-sub" data-testid={`ops-agents-path-${r.id}`}>{r.path.map((p) => p.account).join(' › ')}</span>}
                </td>
                <td>
                  <StatusChip tone={r.isAgent ? 'info' : 'muted'}>{r.isAgent ? t('agents_type_agent') : t('agents_type_player')}</StatusChip>
                  <span className="ops-sub">{t('agents_type_code', { type: r.type })}</span>
                </td>
                <td>
                  <StatusChip tone={r.status === 'active' ? 'success' : 'danger'}>{t(`member_status_${r.status}`)}</StatusChip>
                </td>
                <td className="num">{r.teamSize}</td>
                <td className="num">{r.directCount}</td>
                <td>
                  <LiveContracts list={r.contracts} />
                </td>
                <td className="ops-table__actions">
                  <RowLinks row={r} />
                </td>
              </tr>
            ))
          )}
        </tbody>
      </TableBox>
      {v && <Pager pageNo={pageNo} pageSize={PAGE_SIZE} total={v.total} onPage={setPageNo} testPrefix="ops-agents-pager" />}
    </section>
  );
}

function RowLinks({ row }: { row: TOpsTreeRow }) {
  const { t } = useTranslation('ops');
  const canManage = useOpsCan('agents.manage');
  const make = useMakeTopAgent();
  const [isOpen, setOpen] = useState(false);
  const [isMade, setMade] = useState(false);
  return (
    <div className="ops-row-actions">
      <Link className="ops-btn ops-btn--sm" to={`/ops/agent-contracts?account=${encodeURIComponent(row.account)}`} data-testid={`ops-agents-contracts-${row.id}`}>
        {t('agents_contracts_link')}
      </Link>
      {canManage && row.isAgent && row.parentId === null && (
        <Link className="ops-btn ops-btn--sm ops-btn--primary" to={`/ops/agent-contracts?grant=${encodeURIComponent(row.account)}`} data-testid={`ops-agents-grant-${row.id}`}>
          {t('agents_grant_link')}
        </Link>
      )}
      {/* The first agents of a merchant: a player without an upline made a top agent (an agent sets its own downlines). */}
      {canManage && !row.isAgent && row.parentId === null && row.status === 'active' && (
        <button type="button" className="ops-btn ops-btn--sm ops-btn--primary" onClick={() => setOpen(true)} data-testid={`ops-agents-make-top-${row.id}`}>
          {t('agents_make_top')}
        </button>
      )}
      {isMade && <SuccessNote testId={`ops-agents-made-${row.id}`}>{t('agents_make_top_done', { account: row.account })}</SuccessNote>}
      <ActionDialog
        open={isOpen}
        title={t('agents_make_top_title', { account: row.account })}
        summary={<p>{t('agents_make_top_summary', { account: row.account })}</p>}
        input={{ text: 'reason', payoutReference: false }}
        submitLabel={t('agents_make_top')}
        busy={make.isPending}
        error={make.error}
        onSubmit={(reason) => make.mutate({ id: row.id, reason }, { onSuccess: () => { setOpen(false); setMade(true); } })}
        onClose={() => { setOpen(false); make.reset(); }}
      />
    </div>
  );
}

function RootSummary({ root }: { root: TOpsTreeRow }) {
  const { t } = useTranslation('ops');
  return (
    <div className="ops-panel" data-testid="ops-agents-root">
      <dl className="ops-kv ops-kv--inline">
        <div className="ops-kv__pair">
          <dt>{t('col_member')}</dt>
          <dd className="strong">
            {root.account} <span className="ops-muted">#{root.id}</span>
          </dd>
        </div>
        <div className="ops-kv__pair">
          <dt>{t('agents_col_type')}</dt>
          <dd>{root.isAgent ? t('agents_type_agent') : t('agents_type_player')}</dd>
        </div>
        <div className="ops-kv__pair">
          <dt>{t('agents_col_team')}</dt>
          <dd data-testid="ops-agents-root-team">{root.teamSize}</dd>
        </div>
        <div className="ops-kv__pair">
          <dt>{t('agents_col_direct')}</dt>
          <dd>{root.directCount}</dd>
        </div>
        <div className="ops-kv__pair">
          <dt>{t('agents_col_contracts')}</dt>
          <dd>
            <LiveContracts list={root.contracts} />
          </dd>
        </div>
      </dl>
      <RowLinks row={root} />
    </div>
  );
}
