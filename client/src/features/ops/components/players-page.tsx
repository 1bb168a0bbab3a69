import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { usePlayers, type PlayersQuery } from '../api/players';
import { useOpsTime } from '../lib/format';
import { EmptyRow, ErrorNote, PageHead, Pager, StatusChip, TableBox } from './ops-ui';

const PAGE_SIZE = 20;

/** /ops/players: search players by account, mobile number or id; filter by status; open a profile. */
export function PlayersPage() {
  const formatDateTime = useOpsTime();
  const { t } = useTranslation('ops');
  const [draft, setDraft] = useState('');
  const [draftStatus, setDraftStatus] = useState<'' | 'active' | 'disabled'>('');
  const [q, setQ] = useState<PlayersQuery>({ pageNo: 1, pageSize: PAGE_SIZE });
  const list = usePlayers(q);
  const rows = list.data?.list ?? [];
  return (
    <section className="ops-page" data-testid="ops-players-page">
      <PageHead title={t('nav_players')} />
      <form
        className="ops-filters"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setQ({ pageNo: 1, pageSize: PAGE_SIZE, ...(draft.trim() ? { search: draft.trim() } : {}), ...(draftStatus ? { status: draftStatus } : {}) });
        }}
      >
        <label className="ops-filter ops-filter--wide">
          <span className="ops-field__label">{t('players_search')}</span>
          <input className="ops-input" value={draft} maxLength={64} onChange={(e) => setDraft(e.target.value)} placeholder={t('players_search_hint')} data-testid="ops-players-search" />
        </label>
        <label className="ops-filter">
          <span className="ops-field__label">{t('filter_status')}</span>
          <select className="ops-input" value={draftStatus} onChange={(e) => setDraftStatus(e.target.value as '' | 'active' | 'disabled')} data-testid="ops-players-status">
            <option value="">{t('filter_all')}</option>
            <option value="active">{t('member_status_active')}</option>
            <option value="disabled">{t('player_frozen')}</option>
          </select>
        </label>
        <button type="submit" className="ops-btn ops-btn--primary" data-testid="ops-players-submit">{t('players_search_submit')}</button>
      </form>
      <ErrorNote error={list.error} />
      <TableBox busy={list.isFetching}>
        <thead>
          <tr>
            <th>{t('col_id')}</th>
            <th>{t('players_col_account')}</th>
            <th>{t('players_col_mobile')}</th>
            <th>{t('col_status')}</th>
            <th>{t('players_col_registered')}</th>
            <th>{t('players_col_last_login')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && !list.isPending && <EmptyRow cols={6}>{t('players_none')}</EmptyRow>}
          {rows.map((p) => (
            <tr key={p.id} data-testid={`ops-player-row-${p.account}`}>
              <td className="mono">{p.id}</td>
              <td>
                <Link to={`/ops/players/${p.id}`} className="ops-link" data-testid={`ops-player-open-${p.account}`}>{p.account}</Link>
                {p.nickname && <span className="ops-muted"> · {p.nickname}</span>}
              </td>
              <td>{p.mobile ?? '—'}</td>
              <td>
                <PlayerStatusChips status={p.status} isExcluded={p.isExcluded} />
              </td>
              <td>{formatDateTime(p.createdAt)}</td>
              <td>{formatDateTime(p.lastLoginAt)}</td>
            </tr>
          ))}
        </tbody>
      </TableBox>
      {list.data && <Pager pageNo={list.data.pageNo} pageSize={list.data.pageSize} total={list.data.total} onPage={(n) => setQ({ ...q, pageNo: n })} testPrefix="ops-players-pager" />}
    </section>
  );
}

export function PlayerStatusChips({ status, isExcluded }: { status: 'active' | 'disabled'; isExcluded: boolean }) {
  const { t } = useTranslation('ops');
  return (
    <>
      <StatusChip tone={status === 'active' ? 'success' : 'danger'} testId="ops-player-status">{status === 'active' ? t('member_status_active') : t('player_frozen')}</StatusChip>
      {isExcluded && <> <StatusChip tone="warn" testId="ops-player-excluded">{t('player_excluded')}</StatusChip></>}
    </>
  );
}
