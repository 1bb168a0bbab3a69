import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { ZOpsGame } from '@portal/contracts/api/ops';
import { useOpsGames, useOpsVendors, useUpdateGame, useUpdateVendor, type GamesFilter } from '../api/games';
import { useOpsCan } from './ops-gate';
import { useGameTypeName } from '../lib/format';
import { EmptyRow, ErrorNote, PageHead, Pager, StatusChip, TableBox } from './ops-ui';

const PAGE_SIZE = 50;
const asInt = (v: string, min: number, max: number) => (/^-?\d{1,6}$/.test(v.trim()) && Number(v) >= min && Number(v) <= max ? Number(v) : null);

/** /ops/games: vendor and game maintenance, order, hot games (audited; the catalogue calls follow at once). */
export function GamesPage() {
  const { t } = useTranslation('ops');
  const gameTypeName = useGameTypeName();
  const canEdit = useOpsCan('games.manage');
  const vendors = useOpsVendors();
  const updateVendor = useUpdateVendor();
  const [filter, setFilter] = useState<GamesFilter>({ search: '', hot: '', pageNo: 1, pageSize: PAGE_SIZE });
  const [search, setSearch] = useState('');
  const games = useOpsGames(filter);
  return (
    <section className="ops-page" data-testid="ops-games-page">
      <PageHead title={t('nav_games')} />
      {!canEdit && <p className="ops-note ops-note--info">{t('admin_only')}</p>}
      <div className="ops-panel">
        <h2 className="ops-panel__title">{t('games_vendors')}</h2>
        <ErrorNote error={vendors.error ?? updateVendor.error} testId="ops-vendors-error" />
        <TableBox busy={vendors.isFetching}>
          <thead>
            <tr>
              <th>{t('games_vendor')}</th>
              <th>{t('games_type')}</th>
              <th>{t('games_order')}</th>
              <th>{t('site_maintenance')}</th>
            </tr>
          </thead>
          <tbody>
            {(vendors.data?.list ?? []).map((v) => (
              <tr key={`${v.vassalage}:${v.gameType}`} data-testid={`ops-vendor-${v.vassalage}-${v.gameType}`}>
                <td className="strong">{v.displayName} <span className="mono ops-muted">{v.vassalage}</span></td>
                <td>{gameTypeName(v.gameType)} <span className="mono ops-muted">{v.gameType}</span></td>
                <td>
                  <SortInput label={t('games_order')} value={v.sort} disabled={!canEdit} onSave={(sort) => updateVendor.mutate({ vassalage: v.vassalage, gameType: v.gameType, sort: sort ?? 0 })} />
                </td>
                <td>
                  <label className="ops-check">
                    <input type="checkbox" aria-label={t('site_maintenance')} checked={v.maintenance} disabled={!canEdit || updateVendor.isPending} onChange={(e) => updateVendor.mutate({ vassalage: v.vassalage, gameType: v.gameType, maintenance: e.target.checked })} />
                    {v.maintenance && <StatusChip tone="warn">{t('site_maintenance')}</StatusChip>}
                  </label>
                </td>
              </tr>
            ))}
          </tbody>
        </TableBox>
      </div>
      <form className="ops-filters" onSubmit={(e) => { e.preventDefault(); setFilter((f) => ({ ...f, pageNo: 1, search })); }}>
        <label className="ops-filter">
          <span className="ops-field__label">{t('games_search')}</span>
          <input className="ops-input" value={search} onChange={(e) => setSearch(e.target.value)} maxLength={64} data-testid="ops-games-search" />
        </label>
        <label className="ops-check">
          <input type="checkbox" checked={filter.hot === 'true'} onChange={(e) => setFilter((f) => ({ ...f, pageNo: 1, hot: e.target.checked ? 'true' : '' }))} data-testid="ops-games-hot-only" />
          <span>{t('games_hot_only')}</span>
        </label>
        <button type="submit" className="ops-btn">{t('filter_apply')}</button>
      </form>
      <ErrorNote error={games.error} testId="ops-games-error" />
      <TableBox busy={games.isFetching}>
        <thead>
          <tr>
            <th>{t('games_game')}</th>
            <th>{t('games_vendor')}</th>
            <th>{t('games_hot_rank')}</th>
            <th>{t('games_order')}</th>
            <th>{t('site_maintenance')}</th>
          </tr>
        </thead>
        <tbody>
          {(games.data?.list ?? []).length === 0 && <EmptyRow cols={5}>{games.isPending ? t('loading') : t('empty_games')}</EmptyRow>}
          {(games.data?.list ?? []).map((g) => <GameRow key={`${g.id}:${g.sort}:${g.hotRank}`} game={g} canEdit={canEdit} />)}
        </tbody>
      </TableBox>
      {games.data && <Pager pageNo={filter.pageNo} pageSize={PAGE_SIZE} total={games.data.total} onPage={(n) => setFilter((f) => ({ ...f, pageNo: n }))} testPrefix="ops-games-pager" />}
    </section>
  );
}

function SortInput({ value, disabled, onSave, label, max = 100_000, min = -100_000, allowEmpty = false, testId }: { value: number | null; disabled: boolean; onSave: (v: number | null) => void; label: string; max?: number; min?: number; allowEmpty?: boolean; testId?: string }) {
  const [text, setText] = useState(value === null ? '' : String(value));
  const parsed = text.trim() === '' && allowEmpty ? null : asInt(text, min, max);
  const isValid = parsed !== null || (allowEmpty && text.trim() === '');
  const isChanged = parsed !== value;
  return (
    <span className="ops-inline">
      <input className="ops-input ops-input--narrow" aria-label={label} value={text} inputMode="numeric" disabled={disabled} aria-invalid={!isValid} onChange={(e) => setText(e.target.value)} data-testid={testId} />
      {isChanged && isValid && !disabled && (
        <button type="button" className="ops-btn" onClick={() => onSave(parsed)}>
          ✓
        </button>
      )}
    </span>
  );
}

function GameRow({ game, canEdit }: { game: z.infer<typeof ZOpsGame>; canEdit: boolean }) {
  const { t } = useTranslation('ops');
  const gameTypeName = useGameTypeName();
  const update = useUpdateGame();
  return (
    <tr data-testid={`ops-game-${game.id}`}>
      <td className="strong">{game.gameName} <span className="mono ops-muted">{game.gameCode}</span></td>
      <td>{game.vassalage} · {gameTypeName(game.gameType)}</td>
      <td>
        <SortInput label={t('games_hot_rank')} value={game.hotRank} min={0} max={1000} allowEmpty disabled={!canEdit} onSave={(hotRank) => update.mutate({ id: game.id, body: { hotRank } })} testId={`ops-game-${game.id}-hot`} />
      </td>
      <td>
        <SortInput label={t('games_order')} value={game.sort} disabled={!canEdit} onSave={(sort) => update.mutate({ id: game.id, body: { sort: sort ?? 0 } })} />
      </td>
      <td>
        <label className="ops-check">
          <input type="checkbox" aria-label={t('site_maintenance')} checked={game.maintenance} disabled={!canEdit || update.isPending} onChange={(e) => update.mutate({ id: game.id, body: { maintenance: e.target.checked } })} data-testid={`ops-game-${game.id}-maintenance`} />
          {game.maintenance && <StatusChip tone="warn">{t('site_maintenance')}</StatusChip>}
        </label>
        <ErrorNote error={update.error} />
      </td>
    </tr>
  );
}
